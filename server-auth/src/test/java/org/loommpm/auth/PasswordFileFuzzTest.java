package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the htpasswd reader and the Basic credentials parser. Without {@code JAZZER_FUZZ} it
 * replays the seed corpora in {@code PasswordFileFuzzTestInputs/} (docs/fuzzing.md).
 *
 * <p>{@link #passwordFile}: arbitrary bytes as an htpasswd file either open or fail with an
 * {@link AuthFileException} naming a line of the file; an opened file answers every check
 * without throwing, and a password the file's hash does not match is never granted twice in a
 * row by the cache. {@link #credentials}: any {@code Authorization} value parses or is null,
 * never throws.
 */
class PasswordFileFuzzTest {
    @FuzzTest(maxDuration = "10m")
    void passwordFile(FuzzedDataProvider data) throws IOException {
        String user = data.consumeString(16);
        byte[] password = data.consumeBytes(32);
        byte[] content = data.consumeRemainingAsBytes();
        Path f = Files.createTempFile("htpasswd", ".fuzz");
        try {
            Files.write(f, content);
            PasswordFile file;
            try {
                file = PasswordFile.open(f);
            } catch (AuthFileException e) {
                long lines = new String(content, StandardCharsets.ISO_8859_1).lines().count();
                assertTrue(e.line() >= 1 && e.line() <= Math.max(1, lines), e.getMessage());
                return;
            }
            PasswordFile.Outcome first = file.check(user, password);
            PasswordFile.Outcome second = file.check(user, password);
            assertEquals(first, second, "the same credentials twice");
            assertTrue(first != PasswordFile.Outcome.UNAVAILABLE);
        } finally {
            Files.deleteIfExists(f);
        }
    }

    @FuzzTest(maxDuration = "10m")
    void credentials(String authorization) {
        BasicCredentials c = BasicCredentials.parse(authorization);
        if (c != null) {
            assertTrue(authorization.regionMatches(true, 0, "Basic", 0, 5));
        }
    }
}
