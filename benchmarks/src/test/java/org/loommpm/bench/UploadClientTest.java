package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The upload row's request, its answer check and its response reader. */
class UploadClientTest {
    private static final UploadClient.Upload UPLOAD = UploadClient.build("127.0.0.1", 8080, 100_000);

    @Test
    void theRequestIsFramedAsItSays() {
        byte[] req = UploadClient.bytes(UPLOAD);
        String text = new String(req, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n") + 4;
        String head = text.substring(0, headEnd);
        assertTrue(head.startsWith("POST /upload HTTP/1.1\r\n"), head);
        assertTrue(head.contains("Content-Length: " + UPLOAD.bodyBytes() + "\r\n"), head);
        assertEquals(UPLOAD.bodyBytes(), req.length - headEnd);
        String boundary = head.replaceAll("(?s).*boundary=([^\r]*)\r\n.*", "$1");
        String body = text.substring(headEnd);
        assertTrue(body.startsWith("--" + boundary + "\r\n"));
        assertTrue(body.endsWith("\r\n--" + boundary + "--\r\n"));
        // Three delimiters: before each part and the closing one; none inside the file's bytes.
        assertEquals(3, body.split("--" + boundary, -1).length - 1);
        assertEquals(100_000, UPLOAD.fileSize());
    }

    @Test
    void theSameBytesEveryTime() {
        assertArrayEquals(UploadClient.bytes(UPLOAD), UploadClient.bytes(UploadClient.build("127.0.0.1", 8080, 100_000)));
    }

    @Test
    void anAnswerIsCheckedPartByPart() {
        byte[] good = Toolkit.partsJson(List.of(
                new Toolkit.PartDigest("note", null, UPLOAD.noteSize(), UPLOAD.noteSha()),
                new Toolkit.PartDigest("file", "upload.bin", UPLOAD.fileSize(), UPLOAD.fileSha())));
        assertTrue(UploadClient.verify(UPLOAD, good));
        byte[] wrongSha = Toolkit.partsJson(List.of(
                new Toolkit.PartDigest("note", null, UPLOAD.noteSize(), UPLOAD.noteSha()),
                new Toolkit.PartDigest("file", "upload.bin", UPLOAD.fileSize(), UPLOAD.noteSha())));
        assertFalse(UploadClient.verify(UPLOAD, wrongSha));
        byte[] missing = Toolkit.partsJson(List.of(
                new Toolkit.PartDigest("file", "upload.bin", UPLOAD.fileSize(), UPLOAD.fileSha())));
        assertFalse(UploadClient.verify(UPLOAD, missing));
        assertFalse(UploadClient.verify(UPLOAD, "not json".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void readsContentLengthAndChunkedAnswersOnOneConnection() throws Exception {
        String two = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
        ReadableByteChannel ch = Channels.newChannel(new ByteArrayInputStream(two.getBytes(StandardCharsets.US_ASCII)));
        ByteBuffer buf = ByteBuffer.allocate(16).flip(); // small: lines and bodies cross refills
        UploadClient.Answer a = UploadClient.read(ch, buf);
        assertEquals(200, a.status());
        assertEquals("hello", new String(a.body(), StandardCharsets.US_ASCII));
        assertFalse(a.close());
        UploadClient.Answer b = UploadClient.read(ch, buf);
        assertEquals("abcde", new String(b.body(), StandardCharsets.US_ASCII));
        assertTrue(b.close());
    }

    @Test
    void theHelloJsonIsTechEmpowers() {
        assertEquals("{\"message\":\"Hello, World!\"}", new String(Toolkit.helloJson(), StandardCharsets.UTF_8));
    }
}
