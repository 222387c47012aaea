package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.HttpException;
import org.loommpm.api.Router;

/**
 * What HTTP/2 answers when a handler asks the response for something it cannot send: a streamed
 * body that does not match the Content-Length the handler set is never sent as if it did
 * (RFC 9113 §8.1.1: the response would be malformed); a directory or a range past the file's end
 * fails before the head; an interim status or an {@link HttpException} without an error status is
 * a 500, never a stream left open or ended by a 1xx.
 */
class ResponseMisuseH2Test {
    /** Larger than the stream's 16 KiB buffer, so the head goes out before the body ends. */
    private static final int LARGE = 40_000;
    @TempDir
    static Path dir;
    private static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        Path file = Files.writeString(dir.resolve("f.txt"), "hello");
        Router router = new Router()
                .get("/declared", (req, res) -> {
                    res.header("Content-Length", req.queryParam("cl"));
                    try (OutputStream out = res.outputStream()) {
                        out.write(new byte[Integer.parseInt(req.queryParam("n"))]);
                    }
                })
                .get("/directory", (req, res) -> {
                    try {
                        res.sendFile(dir);
                    } catch (IOException e) {
                        res.send(404, "not a file\n");
                    }
                })
                .get("/range", (req, res) -> {
                    try {
                        res.sendFile(file, 1, Long.MAX_VALUE);
                    } catch (IOException e) {
                        res.send(416, "outside\n");
                    }
                })
                .get("/interim", (req, res) -> res.status(103).send("x"))
                .get("/exception", (req, res) -> {
                    throw new HttpException(Integer.parseInt(req.queryParam("s")), "handler's status");
                });
        server = H2Server.start(router);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static FrameClient.Response get(FrameClient c, int stream, String path) throws IOException {
        c.headers(stream, true, FrameClient.get(path));
        return c.response(stream);
    }

    /** The head went out with the declared length; a body short of it used to end the stream anyway. */
    @Test
    void streamedBodyShorterThanDeclaredResetsTheStream() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            IOException e = assertThrows(IOException.class, () -> get(c, 1, "/declared?cl=100000&n=" + LARGE));
            assertTrue(e.getMessage().contains("reset"), e.getMessage());
            assertEquals(200, get(c, 3, "/declared?cl=5&n=5").status()); // the connection goes on
        }
    }

    /** A body longer than declared used to go out whole under the shorter content-length. */
    @Test
    void streamedBodyLongerThanDeclaredIsRefused() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            assertEquals(500, get(c, 1, "/declared?cl=10&n=" + LARGE).status());
            assertEquals(500, get(c, 3, "/declared?cl=10&n=11").status());
        }
    }

    /** As HTTP/1.1: a short body noticed before the head is out is a 500, not a quietly corrected length. */
    @Test
    void bufferedBodyShorterThanDeclaredIs500() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            assertEquals(500, get(c, 1, "/declared?cl=10&n=3").status());
            FrameClient.Response r = get(c, 3, "/declared?cl=3&n=3");
            assertEquals(200, r.status());
            assertEquals("3", r.headers().get("content-length"));
        }
    }

    /** A directory's size used to go out as the content-length, then the stream was reset. */
    @Test
    void sendFileOfADirectoryFailsBeforeTheHead() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            FrameClient.Response r = get(c, 1, "/directory");
            assertEquals(404, r.status());
            assertEquals("not a file\n", r.text());
        }
    }

    /** {@code position + count} past Long.MAX_VALUE used to pass the check and announce that length. */
    @Test
    void sendFileRangeIsCheckedWithoutOverflow() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            assertEquals(416, get(c, 1, "/range").status());
        }
    }

    /** A 1xx HEADERS frame with END_STREAM is malformed (RFC 9113 §8.1). */
    @Test
    void interimStatusIsRefusedAsTheFinalOne() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            assertEquals(500, get(c, 1, "/interim").status());
        }
    }

    /** An HttpException(99) used to leave the stream unanswered. */
    @Test
    void httpExceptionWithoutAnErrorStatusIs500() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            assertEquals(500, get(c, 1, "/exception?s=99").status());
            assertEquals(500, get(c, 3, "/exception?s=200").status());
            assertEquals(503, get(c, 5, "/exception?s=503").status());
        }
    }
}
