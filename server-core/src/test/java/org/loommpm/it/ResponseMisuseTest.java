package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.HttpException;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * What HTTP/1.1 answers when a handler asks the response for something it cannot send: a file
 * that is a directory or a range past the file's end fails before the head, so the handler can
 * still answer; an interim status as the final one, or an {@link HttpException} without an error
 * status, is a 500, never a response the client cannot end.
 */
class ResponseMisuseTest {
    @TempDir
    static Path dir;
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        Path file = Files.writeString(dir.resolve("f.txt"), "hello");
        Router router = new Router()
                .get("/directory", (req, res) -> {
                    try {
                        res.sendFile(dir);
                    } catch (IOException e) {
                        res.send(404, "not a file\n");
                    }
                })
                .get("/range", (req, res) -> {
                    long position = Long.parseLong(req.queryParam("position"));
                    long count = Long.parseLong(req.queryParam("count"));
                    try {
                        res.sendFile(file, position, count);
                    } catch (IllegalArgumentException e) {
                        res.send(400, "negative\n");
                    } catch (IOException e) {
                        res.send(416, "outside\n");
                    }
                })
                .get("/interim", (req, res) -> res.status(Integer.parseInt(req.queryParam("s"))).send("x"))
                .get("/exception", (req, res) -> {
                    throw new HttpException(Integer.parseInt(req.queryParam("s")), "handler's status");
                });
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RawHttp.Response get(RawHttp c, String target) throws IOException {
        return c.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n\r\n").read();
    }

    /** A directory opens as a channel on Linux and used to fail only after a 200 with its size went out. */
    @Test
    void sendFileOfADirectoryFailsBeforeTheHead() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/directory");
            assertEquals(404, r.status());
            assertEquals("not a file\n", r.text());
            assertEquals("hello", new String(get(c, "/range?position=0&count=5").body())); // still usable
        }
    }

    /** {@code position + count} past Long.MAX_VALUE used to pass the check and announce that length. */
    @Test
    void sendFileRangeIsCheckedWithoutOverflowAndRefusesNegativeCounts() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            assertEquals(416, get(c, "/range?position=1&count=" + Long.MAX_VALUE).status());
            assertEquals(416, get(c, "/range?position=6&count=0").status());
            // A negative count used to send the whole file, where Response's contract refuses it.
            assertEquals(400, get(c, "/range?position=0&count=-5").status());
            RawHttp.Response r = get(c, "/range?position=1&count=4");
            assertEquals(200, r.status());
            assertEquals("ello", r.text());
        }
    }

    /** A 1xx is interim (RFC 9110 §15.2): sent as the final response, the client would wait on for another. */
    @Test
    void interimStatusIsRefusedAsTheFinalOne() throws Exception {
        for (int s : new int[] {100, 102, 103, 199}) {
            try (RawHttp c = new RawHttp(server.port(), 3_000)) {
                assertEquals(500, get(c, "/interim?s=" + s).status(), "status(" + s + ")");
            }
        }
    }

    /** HttpException promises 400-599; another status used to close the connection unanswered or answer 200. */
    @Test
    void httpExceptionWithoutAnErrorStatusIs500() throws Exception {
        for (int s : new int[] {99, 200, 302, 600, 1000}) {
            try (RawHttp c = new RawHttp(server.port(), 3_000)) {
                RawHttp.Response r = get(c, "/exception?s=" + s);
                assertEquals(500, r.status(), "HttpException(" + s + ")");
                assertFalse(r.text().contains("handler's status"));
            }
        }
        try (RawHttp c = new RawHttp(server.port(), 3_000)) {
            assertEquals(409, get(c, "/exception?s=409").status());
            assertTrue(c.closedByServer());
        }
    }
}
