package org.loommpm.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An htpasswd file ({@code AuthUserFile}, mod_authn_file): one {@code user:hash} per line,
 * {@code #} comments and blank lines skipped, the first line of a user winning, as httpd reads
 * it. The file is read again when it changes ({@link WatchedFile}). Opening it checks every hash:
 * one of no known form ({@link PasswordHash#format}) is an error naming the file and line (what
 * {@code -t} reports); when the file changes later such a line is logged and its user can never
 * log in.
 *
 * <p><b>Verified-password cache.</b> bcrypt and apr1-MD5 are slow on purpose (a bcrypt check at
 * htpasswd's cost 5 takes about 2 ms, apr1 about 0.2 ms), and Basic authentication sends the
 * password with every request. httpd re-hashes it each time unless mod_authn_socache is set up;
 * here a password that matched is remembered, keyed by a salted SHA-256 of user and password (the
 * salt is random per file object, so the key is no offline-guessable hash of the password), along
 * with the hash it matched: a later request with the same credentials costs one SHA-256, and a
 * changed hash in the file no longer matches what was remembered. Failures are never cached (a
 * guesser gains nothing), and the cache holds at most {@value #CACHE_LIMIT} entries (cleared when
 * full: only correct passwords can fill it).
 *
 * <p><b>Threads.</b> Any thread; the snapshot is immutable, the cache a concurrent map.
 */
public final class PasswordFile extends WatchedFile<Map<String, String>> {
    /** How many verified passwords are remembered at most. */
    static final int CACHE_LIMIT = 10_000;

    /** What a check of a user and password found. */
    public enum Outcome {
        /** The password matches the user's hash. */
        GRANTED,
        /** No line for the user (mod_authn_file: {@code AUTH_USER_NOT_FOUND}). */
        USER_NOT_FOUND,
        /** The password does not match (or the user's hash is of no known form). */
        PASSWORD_MISMATCH,
        /** The file cannot be read (httpd answers 500). */
        UNAVAILABLE
    }

    private final byte[] salt = new byte[16];
    private final Map<ByteBuffer, String> verified = new ConcurrentHashMap<>();

    private PasswordFile(Path file) throws AuthFileException {
        super(file);
        new SecureRandom().nextBytes(salt);
    }

    /**
     * Reads an htpasswd file.
     *
     * @param file the file
     * @return the file, watched for changes
     * @throws AuthFileException when it cannot be read or a hash is of no known form (with the line)
     */
    public static PasswordFile open(Path file) throws AuthFileException {
        return new PasswordFile(file);
    }

    @Override
    Map<String, String> parse(List<String> lines, boolean strict) throws AuthFileException {
        Map<String, String> users = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = content(lines.get(i));
            if (l == null) {
                continue;
            }
            int colon = l.indexOf(':');
            String user = colon < 0 ? l : l.substring(0, colon);
            String rest = colon < 0 ? "" : l.substring(colon + 1);
            int end = rest.indexOf(':');
            String hash = end < 0 ? rest : rest.substring(0, end);
            if (PasswordHash.format(hash) == null) {
                var e = new AuthFileException(file(), i + 1, "the password of user '" + user + "' is no hash htpasswd "
                        + "writes (bcrypt, apr1-MD5, SHA-1, crypt; plain text is refused as httpd does on Linux)", null);
                if (strict) {
                    throw e;
                }
                skipped(e);
            }
            users.putIfAbsent(user, hash);
        }
        return Map.copyOf(users);
    }

    /**
     * Checks a user's password.
     *
     * @param user the user name (ISO-8859-1 view of the bytes sent)
     * @param password the password's bytes
     * @return what was found
     */
    public Outcome check(String user, byte[] password) {
        Map<String, String> users = current();
        if (users == null) {
            return Outcome.UNAVAILABLE;
        }
        String hash = users.get(user);
        if (hash == null) {
            return Outcome.USER_NOT_FOUND;
        }
        ByteBuffer key = key(user, password);
        if (hash.equals(verified.get(key))) {
            return Outcome.GRANTED;
        }
        if (!PasswordHash.matches(password, hash)) {
            return Outcome.PASSWORD_MISMATCH;
        }
        if (verified.size() >= CACHE_LIMIT) {
            verified.clear();
        }
        verified.put(key, hash);
        return Outcome.GRANTED;
    }

    /** How many verified passwords are remembered (for tests). */
    int cached() {
        return verified.size();
    }

    private ByteBuffer key(String user, byte[] password) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(salt);
            d.update(user.getBytes(StandardCharsets.ISO_8859_1));
            d.update((byte) 0);
            d.update(password);
            return ByteBuffer.wrap(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
