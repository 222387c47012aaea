package org.loommpm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.Supervisor;
import org.loommpm.http.RequestHead;
import org.loommpm.http1.Http1Protocol;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * A protocol plugs into the selector as an entry, without a line of HTTP/1.1 changing: a test
 * protocol chosen by its preface, and a test {@code Upgrade} token (accepted, or declined so the
 * request is served as HTTP/1.1), against a real server.
 */
class ProtocolSelectorTest {
    private static final byte[] PREFACE = "HELLO * TEST/1.0\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Answers one line and closes: the whole test protocol. */
    private static final ConnectionProtocol GREETER = (c, slot) -> answerAndClose(c, "hello from the test protocol\n");

    private static void answerAndClose(ProtocolConnection c, String text) {
        try {
            c.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
            c.handBackLinger(CloseReason.NORMAL);
        } catch (IOException e) {
            c.handBackClose(CloseReason.ABORT);
        }
    }

    private record Entry(String alpn, byte[] preface, ConnectionProtocol protocol)
            implements ProtocolSelector.ConnectionEntry {
    }

    /** {@code Upgrade: test}; declined when the request also carries {@code X-Decline}. */
    private static final ProtocolSelector.UpgradeEntry UPGRADE = new ProtocolSelector.UpgradeEntry() {
        @Override
        public boolean accepts(ProtocolConnection c, RequestHead head) {
            return head.headers().hasToken("Upgrade", "test");
        }

        @Override
        public boolean upgrade(ProtocolConnection c, int slot, RequestHead head) {
            if (head.headers().contains("X-Decline")) {
                return false;
            }
            c.switchProtocol(GREETER);
            answerAndClose(c, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\nupgraded\n");
            return true;
        }
    };

    private Supervisor server;

    private int start(ProtocolSelector selector) throws IOException {
        ServerConfig config = ServerConfig.builder().listen(new InetSocketAddress("127.0.0.1", 0))
                .gracefulShutdownTimeout(Duration.ofSeconds(5)).build();
        server = new Supervisor(config, new Http1Protocol(config, (req, res) -> res.send("http/1.1\n"),
                null, selector));
        server.start();
        return server.boundAddresses().get(0).getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @Test
    void aPrefaceEntryTakesTheConnection() throws Exception {
        int port = start(new ProtocolSelector(List.of(new Entry(null, PREFACE, GREETER)), List.of(),
                List.of("http/1.1")));
        assertEquals("hello from the test protocol\n", exchange(port, "HELLO * TEST/1.0\r\n\r\n"));
        // Anything else is HTTP/1.1.
        assertTrue(exchange(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").endsWith("http/1.1\n"));
    }

    @Test
    void anUpgradeEntryTakesTheRequestOrDeclinesIt() throws Exception {
        int port = start(new ProtocolSelector(List.of(), List.of(UPGRADE), List.of("http/1.1")));
        String upgraded = exchange(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n");
        assertTrue(upgraded.startsWith("HTTP/1.1 101 "), upgraded);
        assertTrue(upgraded.endsWith("upgraded\n"), upgraded);
        String declined = exchange(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nUpgrade: test\r\n"
                + "X-Decline: 1\r\n\r\n");
        assertTrue(declined.startsWith("HTTP/1.1 200 ") && declined.endsWith("http/1.1\n"), declined);
    }

    @Test
    void alpnOffersPresentEntriesInTheConfiguredOrder() {
        ProtocolSelector s = new ProtocolSelector(List.of(new Entry("test/1", null, GREETER),
                new Entry("absent/1", null, null)), List.of(), List.of("test/1", "absent/1", "http/1.1"));
        assertEquals(List.of("test/1", "http/1.1"), s.applicationProtocols());
        assertEquals(List.of("http/1.1"),
                new ProtocolSelector(List.of(), List.of(), List.of("http/1.1")).applicationProtocols());
    }
}
