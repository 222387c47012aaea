package org.loommpm.examples.taskboard;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The users who may log in, with salted PBKDF2 password hashes (the clear passwords are only
 * given at construction). Checking an unknown user costs the same as checking a known one.
 */
final class Users {
    private static final int ROUNDS = 50_000;
    private final Map<String, byte[][]> hashes = new HashMap<>();
    private final byte[][] decoy;

    /** @param passwords user name to password */
    Users(Map<String, String> passwords) {
        passwords.forEach((user, password) -> hashes.put(user, saltAndHash(password)));
        decoy = saltAndHash("no such user");
    }

    /** {@return whether {@code password} is {@code user}'s} */
    boolean check(String user, String password) {
        byte[][] known = user == null ? null : hashes.get(user);
        byte[][] h = known == null ? decoy : known;
        boolean match = MessageDigest.isEqual(h[1], hash(password == null ? "" : password, h[0]));
        return known != null && match;
    }

    private static byte[][] saltAndHash(String password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new byte[][] {salt, hash(password, salt)};
    }

    private static byte[] hash(String password, byte[] salt) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, ROUNDS, 256);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
        }
    }
}
