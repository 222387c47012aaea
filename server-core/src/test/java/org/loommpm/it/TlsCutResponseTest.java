package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.CloseReason;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.testsupport.TestServers;

/**
 * A response cut off over TLS ends with an incomplete close (no close_notify), so a client can
 * tell a close-delimited HTTP/1.0 body cut short from a whole one (RFC 9112 §9.8); a whole one
 * still ends with close_notify.
 *
 * <p>The client runs an {@link SSLEngine}, not an {@code SSLSocket}: on JDK 25 an SSLSocket
 * reads a bare close as the end of the stream, exactly as a close_notify (unless
 * {@code com.sun.net.ssl.requireCloseNotify} is set before its class loads), whereas
 * {@link SSLEngine#closeInbound()} fails when no close_notify came.
 */
class TlsCutResponseTest {
    private static final String PART = "the first part of a body of unknown length;";
    private static final String REST = " and the rest of it";

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static SSLContext clientTls;

    private final LinkedBlockingQueue<SuspendedResponse> suspended = new LinkedBlockingQueue<>();
    private LoomServer server;

    @BeforeAll
    static void setUp() throws Exception {
        certs = TestCertificates.create(dir);
        clientTls = TestCertificates.clientContext(certs.chainPem);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private int startTls() throws IOException {
        Router router = new Router()
                .get("/cut", (req, res) -> {
                    OutputStream body = res.outputStream();
                    body.write(PART.getBytes(StandardCharsets.US_ASCII));
                    body.flush(); // the head and the part go out: no Content-Length, close-delimited
                    throw new IllegalStateException("the source broke mid-body");
                })
                .get("/whole", (req, res) -> {
                    OutputStream body = res.outputStream();
                    body.write(PART.getBytes(StandardCharsets.US_ASCII));
                    body.flush();
                    body.write(REST.getBytes(StandardCharsets.US_ASCII));
                    body.close();
                })
                .get("/suspended", (req, res) -> suspended.add(res.suspend()));
        server = TestServers.start(router,
                c -> c.tls(t -> t.engine(true).certificateFile(certs.chainPem).keyFile(certs.pkcs8Key)));
        return server.port();
    }

    private long closed(CloseReason reason) {
        return EngineStats.of(server.stats()).connectionsClosed(reason);
    }

    @Test
    void aCloseDelimitedBodyCutByAFailingHandlerEndsWithoutCloseNotify() throws Exception {
        int port = startTls();
        try (LogCapture logs = new LogCapture()) {
            Ending end = get(port, "/cut");
            assertCutOff(end, PART);
            TestServers.waitFor("counted", 5, () -> closed(CloseReason.ERROR) == 1);
            assertEquals(1, logs.find(Level.SEVERE, "LM0401").size(), "the handler's failure is logged");
        }
    }

    @Test
    void aWholeCloseDelimitedBodyEndsWithCloseNotify() throws Exception {
        int port = startTls();
        assertWhole(get(port, "/whole"), PART + REST);
        TestServers.waitFor("counted", 5, () -> closed(CloseReason.NORMAL) == 1);
    }

    /** The same for a suspended exchange: its abort() cuts the body, its complete() does not. */
    @Test
    void aSuspendedCloseDelimitedBodyEndsWithCloseNotifyOnlyWhenCompleted() throws Exception {
        int port = startTls();
        Ending aborted;
        try (EngineClient client = new EngineClient(clientTls, port)) {
            client.send("GET /suspended HTTP/1.0\r\nHost: x\r\n\r\n");
            SuspendedResponse s = suspended.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write(PART.getBytes(StandardCharsets.US_ASCII)));
            s.abort();
            aborted = client.readToEnd();
        }
        assertCutOff(aborted, PART);
        TestServers.waitFor("counted", 5, () -> closed(CloseReason.ERROR) == 1);
        Ending completed;
        try (EngineClient client = new EngineClient(clientTls, port)) {
            client.send("GET /suspended HTTP/1.0\r\nHost: x\r\n\r\n");
            SuspendedResponse s = suspended.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write(PART.getBytes(StandardCharsets.US_ASCII)));
            assertTrue(s.write(REST.getBytes(StandardCharsets.US_ASCII)));
            s.complete();
            completed = client.readToEnd();
        }
        assertWhole(completed, PART + REST);
        TestServers.waitFor("counted", 5, () -> closed(CloseReason.NORMAL) == 1);
    }

    /** An HTTP/1.0 GET of {@code path}, read until the server ends the connection. */
    private static Ending get(int port, String path) throws IOException {
        try (EngineClient client = new EngineClient(clientTls, port)) {
            client.send("GET " + path + " HTTP/1.0\r\nHost: x\r\n\r\n");
            return client.readToEnd();
        }
    }

    /** The body so far, then the socket's close with no close_notify before it. */
    private static void assertCutOff(Ending end, String bodySent) {
        assertCloseDelimited(end.text());
        assertTrue(end.text().endsWith("\r\n\r\n" + bodySent), end.text());
        assertFalse(end.closeNotify(), "a body cut off must not end with close_notify");
        assertTrue(String.valueOf(end.inboundFailure()).contains("before receiving peer's close_notify"),
                end.inboundFailure());
    }

    /** The whole body, then close_notify. */
    private static void assertWhole(Ending end, String body) {
        assertCloseDelimited(end.text());
        assertTrue(end.text().endsWith("\r\n\r\n" + body), end.text());
        assertTrue(end.closeNotify(), "a whole body ends with close_notify");
        assertNull(end.inboundFailure());
    }

    /** A 200 whose body only the connection's close delimits: what these tests are about. */
    private static void assertCloseDelimited(String response) {
        String head = response.substring(0, response.indexOf("\r\n\r\n") + 2).toLowerCase(java.util.Locale.ROOT);
        assertTrue(head.startsWith("http/1.") && head.contains(" 200 "), head);
        assertFalse(head.contains("\r\ncontent-length:"), head);
        assertFalse(head.contains("\r\ntransfer-encoding:"), head);
        assertTrue(head.contains("\r\nconnection: close\r\n"), head);
    }

    /**
     * How a connection ended for the client: the application bytes received, whether a
     * close_notify came, and else why {@link SSLEngine#closeInbound()} failed at the socket's end.
     */
    record Ending(byte[] bytes, boolean closeNotify, String inboundFailure) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    /** A blocking TLS client over a plain socket and an {@link SSLEngine}. */
    static final class EngineClient implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final SSLEngine engine;
        /** Records received and not yet unwrapped, in read mode. */
        private ByteBuffer netIn;
        private final ByteBuffer netOut;
        private final ByteBuffer app;
        private final java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();

        EngineClient(SSLContext tls, int port) throws IOException {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            engine = tls.createSSLEngine("localhost", port);
            engine.setUseClientMode(true);
            int packet = engine.getSession().getPacketBufferSize();
            netIn = ByteBuffer.allocate(packet).flip();
            netOut = ByteBuffer.allocate(packet);
            app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
            engine.beginHandshake();
            for (;;) {
                switch (engine.getHandshakeStatus()) {
                    case NEED_WRAP -> wrap(ByteBuffer.allocate(0));
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (!unwrap()) {
                            throw new EOFException("the server closed during the handshake");
                        }
                    }
                    case NEED_TASK -> runTasks();
                    default -> {
                        return;
                    }
                }
            }
        }

        void send(String ascii) throws IOException {
            ByteBuffer src = ByteBuffer.wrap(ascii.getBytes(StandardCharsets.ISO_8859_1));
            while (src.hasRemaining()) {
                wrap(src);
            }
        }

        /** Reads until the server ends the connection, by close_notify or by closing the socket. */
        Ending readToEnd() throws IOException {
            while (!engine.isInboundDone()) {
                if (!unwrap()) {
                    try {
                        engine.closeInbound(); // the socket ended: fails unless close_notify came
                        return new Ending(received.toByteArray(), false, null);
                    } catch (SSLException e) {
                        return new Ending(received.toByteArray(), false, e.getMessage());
                    }
                }
                runTasks();
            }
            return new Ending(received.toByteArray(), true, null);
        }

        private void wrap(ByteBuffer src) throws IOException {
            netOut.clear();
            SSLEngineResult r = engine.wrap(src, netOut);
            if (r.getStatus() != SSLEngineResult.Status.OK) {
                throw new IOException("wrap: " + r);
            }
            out.write(netOut.array(), 0, netOut.position());
            out.flush();
        }

        /** One unwrap of a whole record, reading the socket as needed: false at the socket's end. */
        private boolean unwrap() throws IOException {
            for (;;) {
                app.clear();
                SSLEngineResult r = engine.unwrap(netIn, app);
                received.write(app.array(), 0, app.position());
                switch (r.getStatus()) {
                    case OK, CLOSED -> {
                        return true;
                    }
                    case BUFFER_UNDERFLOW -> {
                        if (!fill()) {
                            return false;
                        }
                    }
                    default -> throw new IOException("unwrap: " + r);
                }
            }
        }

        private boolean fill() throws IOException {
            if (netIn.position() == 0 && netIn.limit() == netIn.capacity()) { // a record larger than the buffer
                netIn = ByteBuffer.allocate(netIn.capacity() * 2).put(netIn).flip();
            }
            netIn.compact();
            int n = in.read(netIn.array(), netIn.position(), netIn.remaining());
            if (n > 0) {
                netIn.position(netIn.position() + n);
            }
            netIn.flip();
            return n >= 0;
        }

        private void runTasks() {
            Runnable task;
            while ((task = engine.getDelegatedTask()) != null) {
                task.run();
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
