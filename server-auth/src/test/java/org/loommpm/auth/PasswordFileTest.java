package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PasswordFileTest {
    private static final String APR1 = "$apr1$xjeY7NVz$k2Fn8dREua8I0FjFpZpum.";
    private static final String SHA = "{SHA}ohgYgF2kkgMlRbH1HlEDczlOc+M=";
    private static final byte[] RIGHT = "s3cret pass".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] WRONG = "nope".getBytes(StandardCharsets.ISO_8859_1);

    @TempDir
    Path dir;

    @Test
    void readsUsersSkipsCommentsAndTheFirstLineOfAUserWins() throws Exception {
        Path f = write("# staff\n\n  alice:" + APR1 + "  \nbob:" + SHA + ":extra field\nalice:" + SHA + "\n");
        PasswordFile users = PasswordFile.open(f);
        assertEquals(PasswordFile.Outcome.GRANTED, users.check("alice", RIGHT));
        assertEquals(PasswordFile.Outcome.PASSWORD_MISMATCH, users.check("alice", WRONG));
        assertEquals(PasswordFile.Outcome.GRANTED, users.check("bob", RIGHT));
        assertEquals(PasswordFile.Outcome.USER_NOT_FOUND, users.check("carol", RIGHT));
        assertEquals(PasswordFile.Outcome.USER_NOT_FOUND, users.check("Alice", RIGHT));
    }

    @Test
    void anUnknownHashIsAnErrorWithTheFileAndLine() throws Exception {
        Path f = write("alice:" + APR1 + "\n# note\nbob:plaintext\n");
        AuthFileException e = assertThrows(AuthFileException.class, () -> PasswordFile.open(f));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().startsWith(f + ":3: "), e.getMessage());
        assertTrue(e.getMessage().contains("'bob'"), e.getMessage());
    }

    @Test
    void aMissingFileIsAnError() {
        AuthFileException e = assertThrows(AuthFileException.class, () -> PasswordFile.open(dir.resolve("none")));
        assertEquals(0, e.line());
    }

    @Test
    void aChangedFileIsReadAgainAndAChangedHashIsNotTakenFromTheCache() throws Exception {
        Path f = write("alice:" + SHA + "\n");
        PasswordFile users = PasswordFile.open(f);
        assertEquals(PasswordFile.Outcome.GRANTED, users.check("alice", RIGHT));
        assertEquals(1, users.cached());
        // A new password for alice ("pw1", crypt MD5), and a line htpasswd would not write: kept out, logged.
        Files.writeString(f, "alice:$1$abcdefgh$CSewKYDMd6dmHkTqkKYk60\ncarol:plain\n", StandardCharsets.ISO_8859_1);
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().plusSeconds(5)));
        waitFor(() -> users.check("alice", RIGHT) == PasswordFile.Outcome.PASSWORD_MISMATCH);
        assertEquals(PasswordFile.Outcome.PASSWORD_MISMATCH, users.check("alice", RIGHT));
        assertEquals(PasswordFile.Outcome.GRANTED, users.check("alice", "pw1".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(PasswordFile.Outcome.PASSWORD_MISMATCH, users.check("carol", "plain".getBytes(StandardCharsets.US_ASCII)));
        Files.delete(f);
        waitFor(() -> users.check("alice", RIGHT) == PasswordFile.Outcome.UNAVAILABLE);
        assertEquals(PasswordFile.Outcome.UNAVAILABLE, users.check("alice", RIGHT));
    }

    @Test
    void theCacheHoldsOnlyCorrectPasswordsAndIsBounded() throws Exception {
        PasswordFile users = PasswordFile.open(write("alice:" + SHA + "\n"));
        for (int i = 0; i < 100; i++) {
            users.check("alice", ("guess" + i).getBytes(StandardCharsets.US_ASCII));
        }
        assertEquals(0, users.cached());
        users.check("alice", RIGHT);
        users.check("alice", RIGHT);
        assertEquals(1, users.cached());
    }

    @Test
    void groupsSpanLinesAndSkipComments() throws Exception {
        Path f = dir.resolve("groups");
        Files.writeString(f, "# groups\nstaff: alice bob\nadmin:carol\nstaff:  dave\t erin\n");
        GroupFile groups = GroupFile.open(f);
        assertEquals(Set.of("staff"), groups.groups("alice"));
        assertEquals(Set.of("staff"), groups.groups("erin"));
        assertEquals(Set.of("admin"), groups.groups("carol"));
        assertEquals(Set.of(), groups.groups("zed"));
        Files.writeString(f, "staff alice\n");
        assertEquals(2, assertThrows(AuthFileException.class, () -> GroupFile.open(f)).line() + 1);
    }

    private Path write(String content) throws Exception {
        Path f = dir.resolve("htpasswd");
        Files.writeString(f, content, StandardCharsets.ISO_8859_1);
        return f;
    }

    /** The file is looked at no more than once a second: polls until the change is seen (5 s at most). */
    static void waitFor(java.util.function.BooleanSupplier seen) throws InterruptedException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (!seen.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
    }
}
