package org.loommpm.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.MultipartBody;

class MultipartReaderTest {
    @TempDir
    Path spool;

    private static MultipartReader reader(byte[] body, MultipartLimits limits) {
        return new MultipartReader(new ByteArrayInputStream(body), MultipartBody.BOUNDARY, limits);
    }

    private static MultipartReader reader(byte[] body) {
        return reader(body, MultipartLimits.DEFAULTS);
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void streamsFieldsAndFilesInOrder() throws IOException {
        byte[] file = random(100_000, 1);
        byte[] body = new MultipartBody().field("title", "Hello, wörld").file("upload", "a b.bin",
                "application/octet-stream", file).field("empty", "").build();
        try (MultipartReader r = reader(body)) {
            Part title = r.next();
            assertEquals("title", title.name());
            assertNull(title.filename());
            assertNull(title.contentType());
            assertEquals("Hello, wörld", title.text());
            assertEquals(13, title.size());
            Part upload = r.next();
            assertEquals("upload", upload.name());
            assertEquals("a b.bin", upload.filename());
            assertEquals("application/octet-stream", upload.contentType());
            assertEquals(List.of("Content-Disposition", "Content-Type"), upload.headerNames());
            assertEquals(-1, upload.size());
            assertFalse(upload.isStored());
            assertArrayEquals(file, upload.content().readAllBytes());
            assertEquals(file.length, upload.size());
            Part empty = r.next();
            assertEquals("", empty.text());
            assertNull(r.next());
            assertNull(r.next());
            assertEquals(3, r.partCount());
            assertEquals(body.length, r.bytesRead());
        }
    }

    @Test
    void movingOnSkipsTheRestOfAPart() throws IOException {
        byte[] body = new MultipartBody().file("a", "a.txt", "text/plain", random(50_000, 2)).field("b", "B").build();
        try (MultipartReader r = reader(body)) {
            Part a = r.next();
            InputStream in = a.content();
            assertEquals(100, in.readNBytes(100).length);
            Part b = r.next();
            assertEquals(50_000, a.size(), "skipped to its end: its size is known");
            assertThrows(IOException.class, in::read, "the reader moved past it");
            assertEquals("B", b.text());
        }
    }

    @Test
    void aPreambleAndEpilogueAndPaddingAreIgnored() throws IOException {
        String b = MultipartBody.BOUNDARY;
        String body = "This is the preamble.\r\n--" + b + "  \t\r\nContent-Disposition: form-data; name=x\r\n\r\n"
                + "1\r\n--" + b + "--\r\nthe epilogue";
        try (MultipartReader r = reader(body.getBytes(StandardCharsets.US_ASCII))) {
            assertEquals("1", r.next().text());
            assertNull(r.next());
        }
    }

    @Test
    void contentThatLooksLikeABoundaryIsContent() throws IOException {
        String b = MultipartBody.BOUNDARY;
        byte[] tricky = ("\r\n--" + b.substring(0, b.length() - 1) + "\r\n\r\n--\r" + "--" + b).getBytes(StandardCharsets.US_ASCII);
        byte[] body = new MultipartBody().file("f", "f", "x/y", tricky).build();
        try (MultipartReader r = reader(body)) {
            assertArrayEquals(tricky, r.next().content().readAllBytes());
            assertNull(r.next());
        }
    }

    @Test
    void readsTheSameWhateverTheReadSizes() throws IOException {
        byte[] file = random(70_000, 3);
        byte[] body = new MultipartBody().field("a", "x").file("f", "f.bin", "application/octet-stream", file).build();
        for (int chunk : new int[] {1, 2, 3, 7, 76, 77, 1000}) {
            try (MultipartReader r = new MultipartReader(trickle(body, chunk), MultipartBody.BOUNDARY,
                    MultipartLimits.DEFAULTS)) {
                assertEquals("x", r.next().text());
                assertArrayEquals(file, r.next().content().readAllBytes(), "chunk " + chunk);
                assertNull(r.next());
            }
        }
    }

    @Test
    void readAllKeepsSmallPartsInMemoryAndSpoolsTheRest() throws IOException {
        byte[] big = random(300_000, 4);
        byte[] body = new MultipartBody().field("a", "small").file("big", "big.bin", "application/octet-stream", big)
                .field("c", "after").build();
        MultipartLimits limits = MultipartLimits.DEFAULTS.withSpoolDirectory(spool).withSpoolThreshold(1024);
        Path saved = spool.resolveSibling(spool.getFileName() + "-saved.bin");
        try (MultipartReader r = reader(body, limits)) {
            List<Part> parts = r.readAll();
            assertEquals(3, parts.size());
            assertTrue(parts.stream().allMatch(Part::isStored));
            assertEquals("small", parts.get(0).text());
            assertEquals("after", parts.get(2).text());
            assertEquals(big.length, parts.get(1).size());
            assertArrayEquals(big, parts.get(1).content().readAllBytes());
            assertArrayEquals(big, parts.get(1).content().readAllBytes(), "a stored part reads again");
            assertEquals(1, files(spool), "the big part alone was spooled");
            MultipartException text = assertThrows(MultipartException.class, () -> parts.get(1).text());
            assertEquals(413, text.status());
            assertTrue(text.getMessage().startsWith("LM2730 "));
            assertEquals(big.length, parts.get(1).saveTo(saved));
            assertEquals(0, files(spool), "moved, not copied");
            assertArrayEquals(big, Files.readAllBytes(saved));
        }
        assertTrue(Files.exists(saved), "a part saved is the application's: close leaves it");
        Files.delete(saved);
    }

    @Test
    void closeDeletesTheSpooledFiles() throws IOException {
        byte[] body = new MultipartBody().file("a", "a", "x/y", random(5000, 5)).file("b", "b", "x/y", random(5000, 6))
                .build();
        MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withSpoolDirectory(spool).withSpoolThreshold(0));
        List<Part> parts = r.readAll();
        assertEquals(2, files(spool));
        r.close();
        assertEquals(0, files(spool));
        assertThrows(IllegalStateException.class, () -> parts.get(0).content());
        assertThrows(IllegalStateException.class, r::next);
        r.close(); // idempotent
    }

    @Test
    void aFailureInReadAllDeletesWhatItSpooledAtOnce() throws IOException {
        byte[] body = new MultipartBody().file("a", "a", "x/y", random(5000, 7)).file("b", "b", "x/y", random(5000, 8))
                .unterminated();
        MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withSpoolDirectory(spool).withSpoolThreshold(0));
        MultipartException e = assertThrows(MultipartException.class, r::readAll);
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith("LM2724 "), e.getMessage());
        assertTrue(r.isClosed());
        assertEquals(0, files(spool));
    }

    @Test
    void saveToOfAStreamingPartCopiesFromTheBodyAndDeletesAPartialFile() throws IOException {
        byte[] file = random(40_000, 9);
        Path target = spool.resolve("out.bin");
        try (MultipartReader r = reader(new MultipartBody().file("f", "f", "x/y", file).build())) {
            assertEquals(file.length, r.next().saveTo(target));
            assertArrayEquals(file, Files.readAllBytes(target));
        }
        byte[] cut = new MultipartBody().file("f", "f", "x/y", file).unterminated();
        try (MultipartReader r = reader(cut)) {
            Part p = r.next();
            assertThrows(MultipartException.class, () -> p.saveTo(target));
            assertFalse(Files.exists(target), "the partial file is gone");
        }
    }

    @Test
    void boundaryFromTheContentType() {
        assertEquals("abc", MultipartReader.boundary("multipart/form-data; boundary=abc"));
        assertEquals("a b:c", MultipartReader.boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b:c\""));
        MultipartException none = assertThrows(MultipartException.class,
                () -> MultipartReader.boundary("multipart/form-data"));
        assertEquals(400, none.status());
        assertTrue(none.getMessage().startsWith("LM2720 "));
        for (String bad : new String[] {"multipart/form-data; boundary=\"ends \"", "multipart/form-data; boundary=a\"b",
                "multipart/form-data; boundary=" + "x".repeat(71), "multipart/form-data; boundary=\"\u00e9\""}) {
            MultipartException e = assertThrows(MultipartException.class, () -> MultipartReader.boundary(bad), bad);
            assertEquals(400, e.status());
            assertTrue(e.getMessage().startsWith("LM2721 "), e.getMessage());
        }
        for (String wrong : new String[] {null, "text/plain", "multipart/mixed; boundary=x",
                "application/x-www-form-urlencoded"}) {
            MultipartException e = assertThrows(MultipartException.class, () -> MultipartReader.boundary(wrong));
            assertEquals(415, e.status());
            assertTrue(e.getMessage().startsWith("LM2722 "));
        }
    }

    @Test
    void brokenFramingIs400() {
        String b = MultipartBody.BOUNDARY;
        String head = "--" + b + "\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--" + b;
        assertFails(400, "LM2724 ", "");
        assertFails(400, "LM2724 ", "no boundary at all");
        assertFails(400, "LM2723 ", head + "junk\r\n");
        assertFails(400, "LM2723 ", head + "-x");
        assertFails(400, "LM2724 ", head);
        assertFails(400, "LM2725 ", "--" + b + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + b + "--");
        assertFails(400, "LM2725 ", "--" + b + "\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--" + b + "--");
        assertFails(400, "LM2725 ", "--" + b + "\r\nContent-Disposition: form-data\r\n\r\nx\r\n--" + b + "--");
        assertFails(400, "LM2725 ", "--" + b + "\r\nno colon\r\n\r\nx\r\n--" + b + "--");
        assertFails(400, "LM2725 ", "--" + b + "\r\n continued\r\n\r\nx\r\n--" + b + "--");
    }

    @Test
    void aFailureStaysTheReadersAnswer() throws IOException {
        byte[] body = new MultipartBody().field("a", "1").file("f", "f", "x/y", new byte[100]).build();
        try (MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withMaxPartSize(50))) {
            assertEquals("1", r.next().text());
            Part f = r.next();
            MultipartException first = assertThrows(MultipartException.class, () -> f.content().readAllBytes());
            assertTrue(first.getMessage().startsWith("LM2728 "));
            assertEquals(first, assertThrows(MultipartException.class, r::next), "not a parse from the middle of a part");
            assertEquals(first, assertThrows(MultipartException.class, () -> f.content().read()));
        }
    }

    @Test
    void limitsAre413() {
        String b = MultipartBody.BOUNDARY;
        String hugeHeader = "--" + b + "\r\nContent-Disposition: form-data; name=a\r\nX-Big: " + "h".repeat(20_000)
                + "\r\n\r\nx\r\n--" + b + "--";
        assertFails(413, "LM2726 ", hugeHeader);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 1001; i++) {
            many.append("--").append(b).append("\r\nContent-Disposition: form-data; name=p\r\n\r\n\r\n");
        }
        assertFails(413, "LM2727 ", many + "--" + b + "--");
        byte[] body = new MultipartBody().file("f", "f", "x/y", new byte[1000]).build();
        MultipartException part = assertThrows(MultipartException.class, () -> {
            try (MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withMaxPartSize(999))) {
                r.next().content().readAllBytes();
            }
        });
        assertEquals(413, part.status());
        assertTrue(part.getMessage().startsWith("LM2728 "));
        MultipartException skipped = assertThrows(MultipartException.class, () -> {
            try (MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withMaxPartSize(999))) {
                r.next();
                r.next(); // skipping counts too
            }
        });
        assertTrue(skipped.getMessage().startsWith("LM2728 "));
        MultipartException whole = assertThrows(MultipartException.class, () -> {
            try (MultipartReader r = reader(body, MultipartLimits.DEFAULTS.withMaxRequestSize(body.length - 1))) {
                r.readAll();
            }
        });
        assertEquals(413, whole.status());
        assertTrue(whole.getMessage().startsWith("LM2729 "));
        assertEquals(1, assertDoesNotThrow(body, MultipartLimits.DEFAULTS.withMaxRequestSize(body.length)
                .withMaxPartSize(1000)));
    }

    @Test
    void aPartHeaderOfOneMebibyteIsRefusedAfterItsLimitNotReadWhole() {
        String b = MultipartBody.BOUNDARY;
        byte[] head = ("--" + b + "\r\nContent-Disposition: form-data; name=a\r\nX: ").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + (1 << 20)];
        System.arraycopy(head, 0, body, 0, head.length);
        java.util.Arrays.fill(body, head.length, body.length, (byte) 'h');
        try (MultipartReader r = reader(body)) {
            MultipartException e = assertThrows(MultipartException.class, r::next);
            assertEquals(413, e.status());
            assertTrue(e.getMessage().startsWith("LM2726 "));
            assertTrue(r.bytesRead() < 64 * 1024, "read " + r.bytesRead());
        }
    }

    @Test
    void filenamesAsBrowsersSendThem() throws IOException {
        String b = MultipartBody.BOUNDARY;
        String body = "--" + b + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"C:\\Users\\me\\r\u00e9sum\u00e9 %22q%22.pdf\"; "
                + "filename*=UTF-8''ignored\r\n\r\nx\r\n--" + b + "\r\ncontent-disposition: FORM-DATA; name=g; filename=\"\"\r\n\r\n\r\n--" + b + "--";
        try (MultipartReader r = reader(body.getBytes(StandardCharsets.UTF_8))) {
            assertEquals("C:\\Users\\me\\r\u00e9sum\u00e9 %22q%22.pdf", r.next().filename());
            Part g = r.next();
            assertEquals("g", g.name());
            assertEquals("", g.filename(), "an empty file input");
        }
    }

    /** Found by MultipartFuzzTest (corpus file folded-blank-line): a folded blank line left a trailing space. */
    @Test
    void foldedLinesJoinWithOneSpaceAndNoTrailingSpace() throws IOException {
        String b = MultipartBody.BOUNDARY;
        String body = "--" + b + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\t\r\nX-F: one\r\n  two \r\n\r\n"
                + "v\r\n--" + b + "--";
        try (MultipartReader r = reader(body.getBytes(StandardCharsets.US_ASCII))) {
            Part p = r.next();
            assertEquals("form-data; name=\"a\"", p.header("content-disposition"));
            assertEquals("one two", p.header("X-F"));
        }
    }

    @Test
    void textUsesThePartsCharset() throws IOException {
        byte[] body = new MultipartBody().part("Content-Disposition: form-data; name=a\r\nContent-Type: text/plain; charset=ISO-8859-1\r\n",
                new byte[] {'K', (byte) 0xF6, 'l', 'n'}).part("Content-Disposition: form-data; name=b\r\nContent-Type: text/plain; charset=nope\r\n",
                new byte[] {'x'}).build();
        try (MultipartReader r = reader(body)) {
            assertEquals("Köln", r.next().text());
            MultipartException e = assertThrows(MultipartException.class, () -> r.next().text());
            assertEquals(415, e.status());
            assertTrue(e.getMessage().startsWith("LM2733 "));
        }
    }

    @Test
    void limitsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> MultipartLimits.DEFAULTS.withMaxParts(0));
        assertThrows(IllegalArgumentException.class, () -> MultipartLimits.DEFAULTS.withMaxPartSize(-1));
        assertThrows(IllegalArgumentException.class, () -> MultipartLimits.DEFAULTS.withMaxPartHeaderBytes(10));
        assertEquals(1000, MultipartLimits.DEFAULTS.maxParts());
        assertEquals(16 * 1024, MultipartLimits.DEFAULTS.maxPartHeaderBytes());
        assertEquals(64 * 1024, MultipartLimits.DEFAULTS.spoolThreshold());
    }

    private static int assertDoesNotThrow(byte[] body, MultipartLimits limits) {
        try (MultipartReader r = reader(body, limits)) {
            return r.readAll().size();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertFails(int status, String id, String body) {
        MultipartException e = assertThrows(MultipartException.class, () -> {
            try (MultipartReader r = reader(body.getBytes(StandardCharsets.UTF_8))) {
                for (Part p; (p = r.next()) != null; ) {
                    p.content().readAllBytes();
                }
            }
        }, body.length() > 200 ? body.substring(0, 200) : body);
        assertEquals(status, e.status(), e.getMessage());
        assertTrue(e.getMessage().startsWith(id), e.getMessage());
    }

    private static long files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    /** {@code body} handed out at most {@code chunk} bytes per read, as a slow network would. */
    static InputStream trickle(byte[] body, int chunk) {
        return new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    /** The eight-bytes-a-step CR scan finds what a byte-by-byte one finds, at every alignment. */
    @Test
    void nextCrAgreesWithAByteByByteScan() {
        java.util.Random random = new java.util.Random(54);
        for (int round = 0; round < 2_000; round++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                // Mostly CR's neighbours (0x0C, 0x0E, 0x8D: borrows and high bits), some CRs.
                int pick = random.nextInt(8);
                b[i] = (byte) (pick == 0 ? '\r' : pick == 1 ? 0x0C : pick == 2 ? 0x0E : pick == 3 ? 0x8D : random.nextInt(256));
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length + 1);
            int to = from + random.nextInt(b.length - from + 1);
            int expected = -1;
            for (int i = from; i < to; i++) {
                if (b[i] == '\r') {
                    expected = i;
                    break;
                }
            }
            assertEquals(expected, MultipartReader.nextCr(b, from, to), java.util.Arrays.toString(b) + " " + from + ".." + to);
        }
    }
}
