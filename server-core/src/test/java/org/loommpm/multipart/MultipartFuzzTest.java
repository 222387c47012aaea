package org.loommpm.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Fuzzes {@link MultipartReader}, the streaming {@code multipart/form-data} parser. Without
 * {@code JAZZER_FUZZ} it replays {@code MultipartFuzzTestInputs/} (docs/fuzzing.md).
 *
 * <p>{@link #parse}: arbitrary bytes as a body with boundary {@value #BOUNDARY}, under small limits.
 * The only failure is a {@link MultipartException} whose status and log id agree (400
 * LM2723-LM2725, 413 LM2726-LM2728) and whose message holds no control character; the reader
 * never reads more than it was given; the same body handed out in pieces of 1 to 13 bytes, and
 * read back in pieces of other sizes, gives the same parts (or the same failure); stored
 * ({@code readAll}) it gives the same parts again, those held in memory totalling at most the spool
 * threshold, and the spool directory is empty once the reader is closed; and the parts written out
 * again as a browser would parse to the same parts.
 *
 * <p>{@link #roundTrip}: parts of any content (CRLFs, dashes, the boundary without its line
 * break), any boundary of RFC 2046's alphabet, a preamble, padding and an epilogue, encoded,
 * parse back to the same parts however the body is cut into reads.
 */
class MultipartFuzzTest {
    static final String BOUNDARY = "B0und";
    private static final MultipartLimits LIMITS;
    private static final Path SPOOL;
    private static final Map<String, Integer> IDS = Map.of("LM2723", 400, "LM2724", 400, "LM2725", 400,
            "LM2726", 413, "LM2727", 413, "LM2728", 413);

    static {
        try {
            SPOOL = Files.createTempDirectory("multipart-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SPOOL.toFile().deleteOnExit();
        LIMITS = MultipartLimits.DEFAULTS.withMaxParts(16).withMaxPartHeaderBytes(512).withMaxPartSize(4096)
                .withSpoolThreshold(64).withSpoolDirectory(SPOOL);
    }

    @FuzzTest(maxDuration = "10m")
    void parse(byte[] input) throws IOException {
        Outcome whole = streamed(new ByteArrayInputStream(input), BOUNDARY, 8192, input.length);
        Outcome pieces = streamed(cut(input, input.length % 13 + 1), BOUNDARY, input.length % 5 + 1, input.length);
        assertEquals(whole, pieces, "the same body in pieces");
        Outcome stored = stored(new ByteArrayInputStream(input), BOUNDARY);
        assertEquals(whole, stored, "the same body stored");
        if (whole.failure != null) {
            return;
        }
        byte[] again = encode(whole.parts, BOUNDARY, "", "", "");
        // A byte that is not UTF-8 in a header comes back as U+FFFD, three bytes: room for that.
        assertEquals(whole, streamed(new ByteArrayInputStream(again), BOUNDARY, 8192, again.length,
                LIMITS.withMaxPartHeaderBytes(3 * LIMITS.maxPartHeaderBytes())), "written out again");
    }

    @FuzzTest(maxDuration = "10m")
    void roundTrip(FuzzedDataProvider data) throws IOException {
        String boundary = data.consumeString(MultipartReader.MAX_BOUNDARY_LENGTH).replaceAll("[^0-9A-Za-z'()+_,\\-./:=? ]", "x");
        if (boundary.isEmpty()) {
            boundary = "z";
        } else if (boundary.endsWith(" ")) {
            boundary = boundary.substring(0, boundary.length() - 1) + "z";
        }
        byte[] delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        List<Parsed> parts = new ArrayList<>();
        for (int i = data.consumeInt(0, 8); i > 0; i--) {
            String name = data.consumeAsciiString(20).replaceAll("[^ -~]", "n");
            String filename = data.consumeBoolean() ? data.consumeAsciiString(20).replaceAll("[^ -~]", "f") : null;
            byte[] content = data.consumeBytes(data.consumeInt(0, 600));
            if (indexOf(content, delimiter) >= 0) {
                return; // a sender must pick a boundary that its content does not hold
            }
            List<String> headers = new ArrayList<>();
            headers.add("Content-Disposition");
            headers.add("form-data; name=\"" + quote(name) + "\"" + (filename == null ? "" : "; filename=\"" + quote(filename) + "\""));
            if (data.consumeBoolean()) {
                headers.add("Content-Type");
                headers.add("application/octet-stream");
            }
            parts.add(new Parsed(name, filename, headers, content));
        }
        String preamble = data.consumeBoolean() ? data.consumeAsciiString(40) + "\r\n" : "";
        if (indexOf(("\r\n" + preamble).getBytes(StandardCharsets.US_ASCII), delimiter) >= 0) {
            return;
        }
        String padding = " ".repeat(data.consumeInt(0, 3));
        String epilogue = data.consumeAsciiString(40);
        byte[] body = encode(parts, boundary, preamble, padding, epilogue);
        Outcome expected = new Outcome(parts, null);
        assertEquals(expected, streamed(new ByteArrayInputStream(body), boundary, 8192, body.length));
        int piece = data.consumeInt(1, 100);
        assertEquals(expected, streamed(cut(body, piece), boundary, data.consumeInt(1, 100), body.length));
        assertEquals(expected, stored(cut(body, piece), boundary));
    }

    /** The parts as {@code next()} gives them, content read {@code step} bytes at a time. */
    private static Outcome streamed(InputStream in, String boundary, int step, int given) throws IOException {
        return streamed(in, boundary, step, given, LIMITS);
    }

    private static Outcome streamed(InputStream in, String boundary, int step, int given, MultipartLimits limits)
            throws IOException {
        List<Parsed> parts = new ArrayList<>();
        try (MultipartReader r = new MultipartReader(in, boundary, limits)) {
            try {
                for (Part p; (p = r.next()) != null; ) {
                    ByteArrayOutputStream content = new ByteArrayOutputStream();
                    InputStream c = p.content();
                    byte[] buf = new byte[step];
                    for (int n; (n = c.read(buf, 0, step)) >= 0; ) {
                        assertTrue(n > 0, "read returned 0");
                        content.write(buf, 0, n);
                    }
                    assertEquals(content.size(), p.size());
                    parts.add(Parsed.of(p, content.toByteArray()));
                }
            } catch (MultipartException e) {
                return failed(e);
            } finally {
                assertTrue(r.bytesRead() <= given, "read " + r.bytesRead() + " of " + given + " bytes");
            }
        }
        return new Outcome(parts, null);
    }

    /** The parts as {@code readAll()} stores them; the spool is empty once the reader is closed. */
    private static Outcome stored(InputStream in, String boundary) throws IOException {
        List<Parsed> parts = new ArrayList<>();
        MultipartReader r = new MultipartReader(in, boundary, LIMITS);
        try {
            long inMemory = 0;
            for (Part p : r.readAll()) {
                assertTrue(p.isStored());
                if (p.inMemory()) {
                    inMemory += p.size();
                }
                byte[] content = p.content().readAllBytes();
                assertArrayEquals(content, p.content().readAllBytes(), "a stored part reads again");
                parts.add(Parsed.of(p, content));
            }
            assertTrue(inMemory <= LIMITS.spoolThreshold(), inMemory + " bytes held in memory");
        } catch (MultipartException e) {
            assertTrue(r.isClosed(), "a failed readAll closes the reader");
            assertEquals(0, spooled(), "a failed readAll leaves no file");
            return failed(e);
        } finally {
            r.close();
        }
        assertEquals(0, spooled(), "closing the reader leaves no file");
        return new Outcome(parts, null);
    }

    private static Outcome failed(MultipartException e) {
        String id = e.getMessage().substring(0, 6);
        assertEquals(IDS.get(id), e.status(), "status and log id disagree: " + e.getMessage());
        assertTrue(e.getMessage().chars().noneMatch(c -> c < 0x20 || c == 0x7f), "a control character: " + e.getMessage());
        return new Outcome(List.of(), id);
    }

    private static long spooled() throws IOException {
        try (Stream<Path> s = Files.list(SPOOL)) {
            return s.count();
        }
    }

    /** A body of these parts: preamble, delimiters with padding, each part's header lines, epilogue. */
    private static byte[] encode(List<Parsed> parts, String boundary, String preamble, String padding, String epilogue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(preamble.getBytes(StandardCharsets.US_ASCII));
        for (Parsed p : parts) {
            out.writeBytes(("--" + boundary + padding + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < p.headers.size(); i += 2) {
                out.writeBytes((p.headers.get(i) + ": " + p.headers.get(i + 1) + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            out.writeBytes(new byte[] {'\r', '\n'});
            out.writeBytes(p.content);
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        out.writeBytes(("--" + boundary + "--" + epilogue).getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** {@code body} handed out at most {@code piece} bytes per read. */
    private static InputStream cut(byte[] body, int piece) {
        return new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, piece));
            }
        };
    }

    /** A part as parsed: name, filename, its header fields as name/value pairs in order, content. */
    record Parsed(String name, String filename, List<String> headers, byte[] content) {
        static Parsed of(Part p, byte[] content) {
            List<String> headers = new ArrayList<>();
            for (String n : p.headerNames()) {
                headers.add(n);
                headers.add(p.header(n));
            }
            return new Parsed(p.name(), p.filename(), headers, content);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Parsed p && java.util.Objects.equals(name, p.name)
                    && java.util.Objects.equals(filename, p.filename) && headers.equals(p.headers)
                    && Arrays.equals(content, p.content);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }

        @Override
        public String toString() {
            return "Parsed[" + name + ", " + filename + ", " + headers + ", " + Arrays.toString(content) + "]";
        }
    }

    /** The parts, or the log id of the failure. */
    record Outcome(List<Parsed> parts, String failure) {
    }
}
