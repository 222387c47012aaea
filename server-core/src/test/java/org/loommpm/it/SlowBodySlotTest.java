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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.config.RequestReadTimeout.Stage;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.SlotlessWaits;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.testsupport.TestServers;

/**
 * Worker slots only for running code (issue #50, 2): an HTTP/1.1 request body that is not
 * arriving parks its worker without its slot. Four slots against eight uploads dribbling their
 * bodies (fixed length, chunked, and after {@code Expect: 100-continue}; plaintext and TLS): a new connection is
 * answered while every upload is still arriving, and each upload is then answered with its body
 * as sent. The assertions are on order and content (the newcomer's answer comes before any upload
 * has finished), never on how fast anything was.
 */
class SlowBodySlotTest {
    private static final int SLOTS = 4;
    private static final int UPLOADS = 8;
    /** Bytes of each body: at one byte every 100 ms, about five seconds of upload. */
    private static final int BODY = 50;

    private static LoomServer start(Consumer<ServerConfig.Builder> more) throws IOException {
        return TestServers.start((req, res) -> {
            if (req.method().equals("POST")) {
                byte[] body = req.bodyBytes();
                long sum = 0;
                for (byte b : body) {
                    sum = sum * 31 + b;
                }
                res.send("len=" + body.length + " sum=" + sum);
            } else {
                res.send("ok");
            }
        }, c -> {
            c.threadsPerChild(SLOTS);
            more.accept(c);
        });
    }

    @Test
    void slowUploadsHoldNoSlotAndANewcomerIsServedWhileTheyArrive() throws Exception {
        try (LoomServer server = start(c -> { })) {
            List<Upload> uploads = startUploads(server, UPLOADS);
            try {
                TestServers.waitFor("every upload waiting without a slot", 10,
                        () -> child(server).slotlessWaits() == UPLOADS);
                assertEquals(0, child(server).activeWorkers(), "no slot held by an upload");
                assertEquals("ok", get(server));
                for (Upload u : uploads) {
                    assertTrue(u.trickle.sent() < BODY, "answered before the uploads finished");
                }
                for (Upload u : uploads) {
                    assertEquals("len=" + BODY + " sum=" + u.sum, u.answer());
                }
                assertEquals(0, child(server).slotlessWaits());
            } finally {
                closeAll(uploads);
            }
        }
    }

    /**
     * MaxSlotlessWaits bounds the waits without a slot: past it a wait keeps its slot, as every
     * wait did before slots were lent (0: none is lent, the old behaviour: the newcomer waits
     * for an upload to end).
     */
    @Test
    void pastMaxSlotlessWaitsAWaitKeepsItsSlot() throws Exception {
        try (LogCapture logs = new LogCapture();
                LoomServer server = start(c -> c.slotlessWaits(new SlotlessWaits(2)))) {
            List<Upload> uploads = startUploads(server, 6);
            try {
                TestServers.waitFor("two waits without a slot, four on theirs", 10,
                        () -> child(server).slotlessWaits() == 2 && child(server).activeWorkers() == SLOTS);
                TestServers.waitFor("LM0302 at WARNING", 5, () -> !logs.find(Level.WARNING, "LM0302").isEmpty());
                for (Upload u : uploads) {
                    assertEquals("len=" + BODY + " sum=" + u.sum, u.answer());
                    assertTrue(child(server).slotlessWaits() <= 2);
                }
            } finally {
                closeAll(uploads);
            }
        }
    }

    /**
     * Once a body has been slow (a wait lent its slot), its later waits lend the slot at once:
     * a client that then sends a byte every 10 ms, inside the 20 ms grace, does not keep its slot
     * between bytes. Eight such uploads against four slots: a new connection is still answered
     * before any of them has finished.
     */
    @Test
    void aBodyThatWasSlowLendsItsSlotAtEveryWait() throws Exception {
        try (LoomServer server = start(c -> { })) {
            List<Upload> uploads = new ArrayList<>();
            try {
                for (int i = 0; i < UPLOADS; i++) {
                    uploads.add(Upload.start(server, 0, 300, 10, null));
                }
                Thread.sleep(500);
                assertEquals("ok", get(server));
                for (Upload u : uploads) {
                    assertTrue(u.trickle.sent() < 300, "answered before the uploads finished");
                }
                for (Upload u : uploads) {
                    assertEquals("len=300 sum=" + u.sum, u.answer());
                }
            } finally {
                closeAll(uploads);
            }
        }
    }

    /** The same over TLS: the body's records arrive slowly, the waits for them hold no slot. */
    @Test
    void slowUploadsOverTlsHoldNoSlot(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        SSLContext tls = TestCertificates.clientContext(certs.chainPem);
        try (LoomServer server = start(c -> c.tls(t -> t.engine(true).certificateFile(certs.chainPem)
                .keyFile(certs.pkcs8Key)))) {
            List<Upload> uploads = new ArrayList<>();
            try {
                for (int i = 0; i < UPLOADS; i++) {
                    uploads.add(Upload.start(server, i % 3, BODY, 100, tls));
                }
                TestServers.waitFor("every upload waiting without a slot", 10,
                        () -> child(server).slotlessWaits() == UPLOADS);
                assertEquals("ok", get(server, tls));
                for (Upload u : uploads) {
                    assertTrue(u.trickle.sent() < BODY, "answered before the uploads finished");
                }
                for (Upload u : uploads) {
                    assertEquals("len=" + BODY + " sum=" + u.sum, u.answer());
                }
            } finally {
                closeAll(uploads);
            }
        }
    }

    /** The body stage of RequestReadTimeout still ends a read whose slot is lent: 408, then the close. */
    @Test
    void bodyTimeoutEndsAWaitWithoutSlot() throws Exception {
        Stage body = new Stage(Duration.ofSeconds(1), Duration.ZERO, 0);
        try (LoomServer server = start(c -> c.requestReadTimeout(RequestReadTimeout.DEFAULT.withBody(body)));
                Socket s = connect(server)) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            TestServers.waitFor("the read waiting without a slot", 5, () -> child(server).slotlessWaits() == 1);
            String answer = readAll(s);
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            assertEquals(0, child(server).slotlessWaits());
            assertEquals("ok", get(server));
        }
    }

    private static ChildStats child(LoomServer server) {
        return EngineStats.of(server.stats()).children().get(0);
    }

    /** One POST per connection, its body sent a byte every 100 ms: fixed length, chunked, or after 100 Continue. */
    private static List<Upload> startUploads(LoomServer server, int n) throws IOException {
        List<Upload> uploads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            uploads.add(Upload.start(server, i % 3));
        }
        return uploads;
    }

    private static void closeAll(List<Upload> uploads) throws Exception {
        for (Upload u : uploads) {
            u.trickle.stop();
            u.socket.close();
        }
    }

    private static final class Upload {
        final Socket socket;
        final Trickle trickle;
        final long sum;

        private Upload(Socket socket, Trickle trickle, long sum) {
            this.socket = socket;
            this.trickle = trickle;
            this.sum = sum;
        }

        static Upload start(LoomServer server, int kind) throws IOException {
            return start(server, kind, BODY, 100, null);
        }

        /**
         * {@code kind} 0: Content-Length; 1: chunked (one chunk); 2: Content-Length after Expect:
         * 100-continue. The head goes at once, the body a byte every {@code stepMs} after a
         * pause of 200 ms (the server's first wait lasts longer than its grace).
         */
        static Upload start(LoomServer server, int kind, int size, long stepMs, SSLContext tls) throws IOException {
            byte[] data = new byte[size];
            long sum = 0;
            for (int i = 0; i < size; i++) {
                data[i] = (byte) ('a' + (i * 7 + kind) % 26);
                sum = sum * 31 + data[i];
            }
            Socket s = connect(server, tls);
            OutputStream out = s.getOutputStream();
            byte[] bytes;
            if (kind == 1) {
                out.write("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String chunk = Integer.toHexString(size) + "\r\n" + new String(data, StandardCharsets.US_ASCII) + "\r\n0\r\n\r\n";
                bytes = chunk.getBytes(StandardCharsets.US_ASCII);
            } else {
                String expect = kind == 2 ? "Expect: 100-continue\r\n" : "";
                out.write(("POST /up HTTP/1.1\r\nHost: x\r\n" + expect + "Content-Length: " + size + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                if (kind == 2) {
                    String interim = readUntil(s, "\r\n\r\n");
                    assertTrue(interim.startsWith("HTTP/1.1 100 "), interim);
                }
                bytes = data;
            }
            out.flush();
            return new Upload(s, Trickle.start(s, bytes, 1, stepMs, 200), sum);
        }

        /** The response's body. */
        String answer() throws IOException {
            String r = readUntil(socket, "sum=" + sum);
            assertTrue(r.startsWith("HTTP/1.1 200 "), r);
            return r.substring(r.indexOf("\r\n\r\n") + 4);
        }
    }

    private static String get(LoomServer server) throws IOException {
        return get(server, null);
    }

    private static String get(LoomServer server, SSLContext tls) throws IOException {
        try (Socket s = connect(server, tls)) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String r = readAll(s);
            assertTrue(r.startsWith("HTTP/1.1 200 "), r);
            return r.substring(r.indexOf("\r\n\r\n") + 4);
        }
    }

    private static Socket connect(LoomServer server) throws IOException {
        return connect(server, null);
    }

    /** A plain socket, or with {@code tls} one whose handshake is done. */
    private static Socket connect(LoomServer server, SSLContext tls) throws IOException {
        Socket s = tls == null ? new Socket() : tls.getSocketFactory().createSocket();
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        s.setSoTimeout(20_000);
        s.setTcpNoDelay(true);
        if (s instanceof SSLSocket ssl) {
            ssl.startHandshake();
        }
        return s;
    }

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

    /** What the server sends until {@code end} appears, read a byte at a time (nothing past it is taken). */
    private static String readUntil(Socket s, String end) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder sb = new StringBuilder();
        int b;
        while (!sb.toString().endsWith(end) && (b = in.read()) >= 0) {
            sb.append((char) b);
        }
        return sb.toString();
    }

    /** Sends {@code bytes} a few at a time on its own thread, until done, stopped or refused. */
    private static final class Trickle {
        private final AtomicInteger sent = new AtomicInteger();
        private volatile boolean stop;
        private Thread thread;

        static Trickle start(Socket s, byte[] bytes, int perStep, long stepMs, long pauseMs) {
            Trickle t = new Trickle();
            t.thread = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(pauseMs);
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < bytes.length && !t.stop; i += perStep) {
                        int n = Math.min(perStep, bytes.length - i);
                        out.write(bytes, i, n);
                        out.flush();
                        t.sent.addAndGet(n);
                        Thread.sleep(stepMs);
                    }
                } catch (IOException | InterruptedException e) {
                    // the server closed
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
