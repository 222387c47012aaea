package org.loommpm.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.multipart.Part;

/**
 * How the upload tests (HTTP/1.1 and HTTP/2) describe parts: one line per part,
 * {@code name filename size sha256}, computed while the part streams, and the line expected for
 * content the test sent.
 */
public final class PartDigests {
    private PartDigests() {
    }

    /** {@return every part {@code reader} streams, one line each} */
    public static String streamed(MultipartReader reader) throws IOException {
        StringBuilder b = new StringBuilder();
        for (Part p; (p = reader.next()) != null; ) {
            b.append(describe(p, p.content())).append('\n');
        }
        return b.toString();
    }

    /** {@return {@code p}'s line, its size and digest read from {@code content}} */
    public static String describe(Part p, InputStream content) throws IOException {
        MessageDigest sha = sha256();
        byte[] buf = new byte[8192];
        long size = 0;
        for (int n; (n = content.read(buf)) >= 0; ) {
            sha.update(buf, 0, n);
            size += n;
        }
        return p.name() + " " + p.filename() + " " + size + " " + HexFormat.of().formatHex(sha.digest());
    }

    /** {@return the line a part named {@code name} with {@code content} gets} */
    public static String line(String name, String filename, byte[] content) {
        return name + " " + filename + " " + content.length + " " + HexFormat.of().formatHex(sha256().digest(content));
    }

    /** {@return {@code n} bytes of a seeded random sequence} */
    public static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
