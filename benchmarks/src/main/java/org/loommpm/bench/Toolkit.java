package org.loommpm.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What the peers share for {@code benchmarks/toolkit.sh} (issue 54's cost rows): the JSON of
 * TechEmpower's {@code /json} test and of the {@code /upload} answer, serialised by the same
 * Jackson {@link ObjectMapper} (the root pom's {@code jackson.version}) in every peer's handler, and
 * the multipart limits every peer is given.
 *
 * <p>{@code GET /json}: {@code {"message":"Hello, World!"}}, a new {@link Message} serialised per
 * request (TechEmpower's rule: the object is instantiated for each request), Content-Type
 * {@code application/json}.
 *
 * <p>{@code POST /upload} ({@code multipart/form-data}): a JSON array with, per part in order,
 * {@code name}, {@code filename} ({@code null} for a field without one), {@code size} (bytes of
 * content) and {@code sha256} (lower-case hex of the content).
 */
public final class Toolkit {
    /** The path of TechEmpower's JSON test. */
    static final String JSON_PATH = "/json";
    /** The path of the multipart upload. */
    static final String UPLOAD_PATH = "/upload";
    /** The Content-Type of every JSON answer. */
    static final String JSON_TYPE = "application/json";
    /** TechEmpower's message. */
    static final String HELLO = "Hello, World!";

    /** The largest request body a peer accepts on {@code /upload} (413 above). */
    static final long MAX_REQUEST_BYTES = 64L << 20;
    /** The largest part (file or field) a peer accepts. */
    static final long MAX_PART_BYTES = 32L << 20;
    /** The most parts a request may have (Netty's default {@code maxFields}). */
    static final int MAX_PARTS = 128;
    /**
     * Parts up to this size stay in memory; larger ones are spooled to {@link #uploadDir()}
     * (Netty's {@code DefaultHttpDataFactory.MINSIZE}, used by its {@code http/upload} example).
     */
    static final long MEMORY_THRESHOLD_BYTES = 16L << 10;
    /** The most bytes of one part's header block (Jetty's default {@code maxHeadersSize}). */
    static final int MAX_PART_HEADER_BYTES = 8 << 10;

    /** Thread-safe once configured; shared, as Jackson recommends (an ObjectMapper is costly to create). */
    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final HexFormat HEX = HexFormat.of();

    private Toolkit() {
    }

    /** TechEmpower's message object: a new one per request. */
    public record Message(String message) {
    }

    /** One part of an upload as the answer reports it. */
    public record PartDigest(String name, String filename, long size, String sha256) {
    }

    /** {@code {"message":"Hello, World!"}}, serialised now from a new {@link Message}. */
    static byte[] helloJson() {
        try {
            return MAPPER.writeValueAsBytes(new Message(HELLO));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The upload answer: the parts as a JSON array. */
    static byte[] partsJson(List<PartDigest> parts) {
        try {
            return MAPPER.writeValueAsBytes(parts);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new SHA-256 digest (every JDK has it). */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Lower-case hex of a digest. */
    static String hex(byte[] digest) {
        return HEX.formatHex(digest);
    }

    /** Reads {@code in} to its end in 64 KiB steps into a digest: never more than a buffer in memory. */
    static PartDigest digest(String name, String filename, InputStream in) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[64 << 10];
        long size = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            md.update(buf, 0, n);
            size += n;
        }
        return new PartDigest(name, filename, size, hex(md.digest()));
    }

    /**
     * Where the peers spool parts above {@link #MEMORY_THRESHOLD_BYTES}: {@code BENCH_UPLOAD_DIR}
     * from the environment (toolkit.sh gives each server process a fresh one, and checks it is empty
     * afterwards: every temporary file was deleted), else {@code java.io.tmpdir}; created if missing.
     */
    static Path uploadDir() {
        String v = System.getenv("BENCH_UPLOAD_DIR");
        Path dir = v == null || v.isBlank() ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(v.strip());
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
