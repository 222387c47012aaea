package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.config.RequestReadTimeout.Stage;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.CloseReason;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.TestServers;

/**
 * {@code RequestReadTimeout} (header and body stages with MinRate) and {@code FirstByteTimeout}
 * against raw sockets that send slowly or not at all. Configured in milliseconds so each case
 * takes a few seconds; the assertions are on what the client gets (a 408, a close, a 200), never
 * on how long it took.
 */
class ReadTimeoutsTest {
    private static final Duration S1 = Duration.ofSeconds(1);

    /** A head of 154 bytes: at 5 bytes/s it would take half a minute. */
    private static final String SLOW_HEAD = "GET /slow HTTP/1.1\r\nHost: x\r\nX-Padding: " + "p".repeat(100) + "\r\n\r\n";

    private static LoomServer start(Consumer<ServerConfig.Builder> cfg) throws IOException {
        return TestServers.start((req, res) -> {
            if (req.method().equals("POST")) {
                res.send("len=" + req.bodyBytes().length);
            } else {
                res.send("ok");
            }
        }, cfg);
    }

    private static Consumer<ServerConfig.Builder> stages(Stage header, Stage body) {
        return c -> c.requestReadTimeout(RequestReadTimeout.DEFAULT.withHeader(header).withBody(body));
    }

    @Test
    void headAtFiveBytesPerSecondGets408AndClose() throws Exception {
        try (LogCapture logs = new LogCapture();
                LoomServer server = start(stages(new Stage(S1, Duration.ofSeconds(2), 500), RequestReadTimeout.DEFAULT.body()));
                Socket s = connect(server)) {
            Trickle t = Trickle.start(s, SLOW_HEAD.getBytes(StandardCharsets.US_ASCII), 1, 200);
            String answer = readAll(s);
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            assertTrue(t.sent() < SLOW_HEAD.length(), "answered before the head was complete");
            TestServers.waitFor("LM2001 at INFO", 5, () -> !logs.find(Level.INFO, "LM2001").isEmpty());
            assertTrue(logs.errors().isEmpty(), "a slow client is no server error");
        }
    }

    @Test
    void trickleAboveMinRateIsExtendedAndServed() throws Exception {
        // 40 bytes/s against MinRate=20 (50 ms earned per byte): the 154-byte head takes about 4 s,
        // four times the first timeout, and arrives before its deadline at every moment.
        try (LoomServer server = start(stages(new Stage(S1, Duration.ofSeconds(30), 20), Stage.OFF));
                Socket s = connect(server)) {
            Trickle t = Trickle.start(s, SLOW_HEAD.getBytes(StandardCharsets.US_ASCII), 4, 100);
            String answer = readUntil(s, "ok");
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
        }
    }

    @Test
    void sameTrickleWithoutRateTimesOut() throws Exception {
        try (LoomServer server = start(stages(Stage.of(S1), Stage.OFF)); Socket s = connect(server)) {
            Trickle t = Trickle.start(s, SLOW_HEAD.getBytes(StandardCharsets.US_ASCII), 4, 100);
            String answer = readAll(s);
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
        }
    }

    @Test
    void maximumCapsTheExtension() throws Exception {
        // MinRate=10 earns 100 ms per byte, far more than the trickle needs, but never past 2 s.
        try (LoomServer server = start(stages(new Stage(S1, Duration.ofSeconds(2), 10), Stage.OFF));
                Socket s = connect(server)) {
            Trickle t = Trickle.start(s, SLOW_HEAD.getBytes(StandardCharsets.US_ASCII), 2, 100);
            String answer = readAll(s);
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            assertTrue(t.sent() < SLOW_HEAD.length(), "cut off at the maximum, before the head was complete");
        }
    }

    @Test
    void silentConnectionIsClosedByThePollerAlone() throws Exception {
        try (LogCapture logs = new LogCapture();
                LoomServer server = start(c -> c.firstByteTimeout(Duration.ofMillis(300)));
                Socket s = connect(server)) {
            assertEquals("", readAll(s), "closed without an answer (nothing to answer)");
            // LM2002 is logged only for a connection no worker was ever dispatched for.
            TestServers.waitFor("LM2002 at INFO", 5, () -> !logs.find(Level.INFO, "LM2002").isEmpty());
            assertEquals(0, server.stats().requests());
        }
    }

    /**
     * A flood of timeouts is one line and a count per id (per 10 s), not a line per connection:
     * 5,000 slowloris connections logged 5,003 lines (issue 51). The count comes with the
     * interval's end, or at stop.
     */
    @Test
    void manySilentConnectionsAreOneLineAndThenACount() throws Exception {
        try (LogCapture logs = new LogCapture()) {
            LoomServer server = start(c -> c.firstByteTimeout(Duration.ofMillis(300)));
            Socket[] silent = new Socket[5];
            for (int i = 0; i < silent.length; i++) {
                silent[i] = connect(server);
            }
            for (Socket s : silent) {
                assertEquals("", readAll(s));
                s.close();
            }
            EngineStats stats = EngineStats.of(server.stats());
            TestServers.waitFor("five timeouts", 5, () -> stats.connectionsClosed(CloseReason.TIMEOUT) == 5);
            assertEquals(1, logs.find(Level.INFO, "LM2002").size(), "one line for the first");
            server.close();
            List<LogRecord> lines = logs.find(Level.INFO, "LM2002");
            assertEquals(2, lines.size());
            assertTrue(lines.get(1).getMessage().startsWith("LM2002 4 more in "), lines.get(1).getMessage());
        }
    }

    @Test
    void slowBodyOnAReadingHandlerGets408() throws Exception {
        try (LogCapture logs = new LogCapture();
                LoomServer server = start(stages(RequestReadTimeout.DEFAULT.header(), new Stage(S1, Duration.ZERO, 500)));
                Socket s = connect(server)) {
            s.getOutputStream().write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            Trickle t = Trickle.start(s, "b".repeat(1000).getBytes(StandardCharsets.US_ASCII), 1, 200);
            String answer = readAll(s);
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            assertTrue(answer.contains("Connection: close"), answer);
            TestServers.waitFor("LM2003 at INFO", 5, () -> !logs.find(Level.INFO, "LM2003").isEmpty());
            assertTrue(logs.errors().isEmpty(), "a slow client is no server error");
        }
    }

    @Test
    void bodyTrickleAboveMinRateIsServed() throws Exception {
        try (LoomServer server = start(stages(RequestReadTimeout.DEFAULT.header(), new Stage(S1, Duration.ZERO, 20)));
                Socket s = connect(server)) {
            s.getOutputStream().write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 120\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            Trickle t = Trickle.start(s, "b".repeat(120).getBytes(StandardCharsets.US_ASCII), 4, 100);
            String answer = readUntil(s, "len=120");
            t.stop();
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
        }
    }

    @Test
    void stagesOffLeaveTimeoutInCharge() throws Exception {
        // header=0 body=0: a partial head waits under Timeout instead (here 1 s), then 408.
        try (LoomServer server = start(c -> c.timeout(S1).requestReadTimeout(
                RequestReadTimeout.DEFAULT.withHeader(Stage.OFF).withBody(Stage.OFF)));
                Socket s = connect(server)) {
            s.getOutputStream().write("GET / HT".getBytes(StandardCharsets.US_ASCII));
            String answer = readAll(s);
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
        }
    }

    private static Socket connect(LoomServer server) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        s.setSoTimeout(20_000);
        s.setTcpNoDelay(true);
        return s;
    }

    /** Everything the server sends until it closes. */
    private static String readAll(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder sb = new StringBuilder();
        byte[] buf = new byte[4096];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                sb.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (IOException e) {
            // a reset after the answer counts as the close
        }
        return sb.toString();
    }

    /** What the server sends until {@code end} appears (the connection stays open). */
    private static String readUntil(Socket s, String end) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder sb = new StringBuilder();
        byte[] buf = new byte[4096];
        int n;
        while (!sb.toString().endsWith(end) && (n = in.read(buf)) > 0) {
            sb.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }

    /** Sends {@code bytes} a few at a time on its own thread, until done, stopped or refused. */
    private static final class Trickle {
        private final AtomicInteger sent = new AtomicInteger();
        private volatile boolean stop;
        private Thread thread;

        static Trickle start(Socket s, byte[] bytes, int perStep, long stepMs) {
            Trickle t = new Trickle();
            t.thread = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < bytes.length && !t.stop; i += perStep) {
                        int n = Math.min(perStep, bytes.length - i);
                        out.write(bytes, i, n);
                        out.flush();
                        t.sent.addAndGet(n);
                        Thread.sleep(stepMs);
                    }
                } catch (IOException | InterruptedException e) {
                    // the server closed: the point of most of these tests
                }
            });
            return t;
        }

        int sent() {
            return sent.get();
        }

        void stop() throws InterruptedException {
            stop = true;
            thread.join(5_000);
            assertFalse(thread.isAlive());
        }
    }
}
