package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** The forms htpasswd writes, from vectors it wrote and, where it is installed, from fresh runs of it. */
class PasswordHashTest {
    private static final byte[] PASSWORD = "s3cret pass".getBytes(StandardCharsets.ISO_8859_1);

    /** Written by htpasswd 2.4 (-B, -m, -s, -d, -2, -5) and openssl passwd (-1) for "s3cret pass" / "pw1". */
    private static final Map<String, PasswordHash.Format> VECTORS = Map.of(
            "$2y$05$tb0F3cg2auVqf2Bu9EcQzORngkEZIoewAau.EYLoaYmXrxQJgSHvm", PasswordHash.Format.BCRYPT,
            "$apr1$xjeY7NVz$k2Fn8dREua8I0FjFpZpum.", PasswordHash.Format.APR1_MD5,
            "{SHA}ohgYgF2kkgMlRbH1HlEDczlOc+M=", PasswordHash.Format.SHA1,
            "5cUhlKDUb7/AM", PasswordHash.Format.DES_CRYPT,
            "$6$Pz0FhgB3dpkeeV00$BjD6tCesE3SxaiwKeProkP6FJN4qxwcpKcop1ftBFiI7BTNTARfVROlwgRasOLFQ8VOZNUf86YwDF5V5OSTdt.",
            PasswordHash.Format.SHA512_CRYPT,
            "$5$LanHz.9gD5NJzmbA$nvI.3fp1Dy.stX6qN9tsEf/IdzEmhDlzRnDJnulCQA6", PasswordHash.Format.SHA256_CRYPT);

    @Test
    void everyFormHtpasswdWritesMatchesItsPasswordOnly() {
        VECTORS.forEach((hash, format) -> {
            assertEquals(format, PasswordHash.format(hash), hash);
            assertTrue(PasswordHash.matches(PASSWORD, hash), hash);
            assertFalse(PasswordHash.matches("S3cret pass".getBytes(StandardCharsets.ISO_8859_1), hash), hash);
            assertFalse(PasswordHash.matches(new byte[0], hash), hash);
        });
    }

    @Test
    void thePasswordGivenIsLeftAsItWas() {
        byte[] pw = PASSWORD.clone();
        VECTORS.keySet().forEach(hash -> PasswordHash.matches(pw, hash));
        org.junit.jupiter.api.Assertions.assertArrayEquals(PASSWORD, pw);
    }

    @Test
    void cryptMd5FromOpenssl() {
        String hash = "$1$abcdefgh$CSewKYDMd6dmHkTqkKYk60";
        assertEquals(PasswordHash.Format.MD5_CRYPT, PasswordHash.format(hash));
        assertTrue(PasswordHash.matches("pw1".getBytes(StandardCharsets.US_ASCII), hash));
        assertFalse(PasswordHash.matches("pw2".getBytes(StandardCharsets.US_ASCII), hash));
    }

    @Test
    void desCryptReadsEightCharactersAsCryptDoes() {
        assertTrue(PasswordHash.matches("s3cret p and more".getBytes(StandardCharsets.ISO_8859_1), "5cUhlKDUb7/AM"));
    }

    @Test
    void plainTextTruncatedAndUnknownHashesMatchNothing() {
        for (String h : new String[] {"s3cret pass", "", "$apr1$xjeY7NVz$k2Fn8dREua8I0FjFpZpum", "{SHA}ohgYgF2kkgMlRbH1HlEDczlOc+M",
                "$2y$05$tb0F3cg2auVqf2Bu9EcQzORngkEZIoewAau.EYLoaYmXrxQJgSHv", "$y$j9T$abc$def", "$2y$99$tb0F3cg2auVqf2Bu9EcQzORngkEZIoewAau.EYLoaYmXrxQJgSHvm"}) {
            assertFalse(PasswordHash.matches(PASSWORD, h), h);
        }
        assertNull(PasswordHash.format("s3cret pass"));
        assertNull(PasswordHash.format("$y$j9T$abc$def"));
    }

    @Test
    void freshHashesFromTheInstalledHtpasswd() throws Exception {
        Path htpasswd = Path.of("/usr/bin/htpasswd");
        assumeTrue(Files.isExecutable(htpasswd), "htpasswd is not installed (apache2-utils): skipped");
        for (String flag : new String[] {"-B", "-m", "-s", "-d", "-2", "-5"}) {
            String pw = "p" + ThreadLocalRandom.current().nextInt(1_000_000) + "é:x";
            Process p = new ProcessBuilder(htpasswd.toString(), "-nb" + flag.substring(1), "u", pw).redirectErrorStream(false).start();
            String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
            assertEquals(0, p.waitFor());
            String hash = line.substring(2);
            byte[] bytes = pw.getBytes(StandardCharsets.UTF_8);
            assertTrue(PasswordHash.format(hash) != null, flag + " " + hash);
            assertTrue(PasswordHash.matches(bytes, hash), flag + " " + hash);
            bytes[0] ^= 1;
            assertFalse(PasswordHash.matches(bytes, hash), flag + " " + hash);
        }
    }
}
