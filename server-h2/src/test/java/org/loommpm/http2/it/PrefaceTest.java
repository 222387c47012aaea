package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.ACK;
import static org.loommpm.http2.it.FrameClient.SETTINGS;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client connection preface on the shared HTTP/1.1 + h2c port (RFC 9113 §3.4): the selector
 * hands a connection to HTTP/2 as soon as its first line is {@code PRI * HTTP/2.0}, and HTTP/2
 * checks the rest. Whatever follows, an invalid preface ends the connection: a connection error
 * PROTOCOL_ERROR (GOAWAY, then close) once HTTP/2 has it; HTTP/1.1's 400 or 505 and a close for
 * bytes that never looked like the preface (h2spec's "3.5/2 Sends invalid connection preface"
 * sends {@code INVALID CONNECTION PREFACE} and checks only that the connection closes). On a
 * port that speaks h2c alone ({@code Protocols h2c}) every connection is HTTP/2's, so the same
 * bytes are a connection error there. {@code ConnectionErrorTest} has the other two cases (a
 * wrong preface, a first frame other than SETTINGS).
 */
class PrefaceTest {
    private static final int PROTOCOL_ERROR = 1;
    /** What h2spec's "3.5/2 Sends invalid connection preface" sends, exactly. */
    private static final String H2SPEC_INVALID_PREFACE = "INVALID CONNECTION PREFACE\r\n\r\n";
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        server = H2Server.start((req, res) -> res.send("ok"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void prefaceLineWithAWrongRestIsAConnectionError() throws Exception {
        for (String wrong : new String[] {"PRI * HTTP/2.0\r\n\r\nSM\r\n\rQ",
                "PRI * HTTP/2.0\r\nGET / HTTP/1.1\r\n\r\n"}) {
            try (FrameClient c = new FrameClient(server.port())) {
                c.raw(ascii(wrong));
                assertEquals(PROTOCOL_ERROR, c.expectGoAway(), wrong);
                assertTrue(c.closedByServer(), "closed after GOAWAY: " + wrong);
            }
        }
    }

    @Test
    void h2specInvalidPrefaceOnASharedPortIsAnHttp1BadRequest() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(ascii(H2SPEC_INVALID_PREFACE));
            byte[] start = s.getInputStream().readNBytes(12);
            assertEquals("HTTP/1.1 400", new String(start, StandardCharsets.US_ASCII));
            assertTrue(closesAfterAnswer(s.getInputStream()), "the server must terminate the connection");
        }
    }

    @Test
    void h2specInvalidPrefaceOnAnH2cOnlyPortIsAGoAwayProtocolError() throws Exception {
        try (H2Server h2cOnly = H2Server.start((req, res) -> res.send("ok"), s -> s,
                b -> b.protocols(List.of("h2c")));
             FrameClient c = new FrameClient(h2cOnly.port())) {
            c.raw(ascii(H2SPEC_INVALID_PREFACE));
            assertEquals(PROTOCOL_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "closed after GOAWAY");
        }
    }

    @Test
    void anH2cOnlyPortServesThePreface() throws Exception {
        try (H2Server h2cOnly = H2Server.start((req, res) -> res.send("ok"), s -> s,
                b -> b.protocols(List.of("h2c")));
             FrameClient c = FrameClient.open(h2cOnly.port())) {
            c.headers(1, true, FrameClient.get("/"));
            assertEquals("ok", new String(c.response(1).body(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void prefaceLikeLineWithAnotherVersionIsHttp1AndCloses() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(ascii("PRI * HTTP/2.1\r\n\r\nSM\r\n\r\n"));
            assertTrue(closesAfterAnswer(s.getInputStream()));
        }
    }

    @Test
    void prefaceArrivingByteByByteIsHttp2() throws Exception {
        try (FrameClient c = new FrameClient(server.port())) {
            for (byte b : FrameClient.PREFACE) {
                c.raw(new byte[] {b});
                Thread.sleep(5);
            }
            c.settings();
            FrameClient.Frame f = c.read();
            assertEquals(SETTINGS, f.type());
            assertFalse(f.has(ACK), "the server's own SETTINGS first");
            c.frame(SETTINGS, ACK, 0, new byte[0]);
            c.headers(1, true, FrameClient.get("/"));
            assertEquals("ok", new String(c.response(1).body(), StandardCharsets.UTF_8));
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads whatever the server answers until it closes: {@code true} on EOF or reset, {@code false} on timeout. */
    private static boolean closesAfterAnswer(InputStream in) throws IOException {
        byte[] buf = new byte[1024];
        try {
            while (in.read(buf) >= 0) {
                // the answer (an HTTP/1.1 status) is not what h2spec checks
            }
            return true;
        } catch (SocketException e) {
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        }
    }
}
