package org.loommpm.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.loommpm.config.ServerConfig;
import org.loommpm.protocol.Protocols;
import org.loommpm.testsupport.LogCapture;

/** A Supervisor on 127.0.0.1 with an ephemeral port, driven from the engine package, plus a bounded load. */
final class SupervisorHarness implements AutoCloseable {
    final Supervisor supervisor;
    /** Its children's factory: {@code starts.failNext(n)} makes child starts fail, {@code starts.stallNextIteration} wedges a poller. */
    final StartFaults starts = new StartFaults();
    final int port;

    SupervisorHarness(org.loommpm.api.Handler app, Consumer<ServerConfig.Builder> directives) throws IOException {
        this(app, directives, s -> { });
    }

    SupervisorHarness(org.loommpm.api.Handler app, Consumer<ServerConfig.Builder> directives,
                      Consumer<SupervisorHarness> beforeStart) throws IOException {
        this(app, directives, beforeStart, true);
    }

    /** With {@code timedMaintenance} false, maintenance passes run only on {@link #pass()}. */
    SupervisorHarness(org.loommpm.api.Handler app, Consumer<ServerConfig.Builder> directives,
                      Consumer<SupervisorHarness> beforeStart, boolean timedMaintenance) throws IOException {
        ServerConfig.Builder b = ServerConfig.builder().listen(new InetSocketAddress("127.0.0.1", 0))
                .gracefulShutdownTimeout(Duration.ofSeconds(5));
        directives.accept(b);
        ServerConfig config = b.build();
        supervisor = new Supervisor(config, Protocols.initial(config, app, null), starts, timedMaintenance);
        beforeStart.accept(this);
        supervisor.start();
        port = supervisor.boundAddresses().get(0).getPort();
    }

    /** Runs one maintenance pass and returns once it has run. */
    void pass() throws Exception {
        supervisor.maintenancePass().get(10, TimeUnit.SECONDS);
    }

    /** Children of the current generation that are not draining. */
    List<Child> serving() {
        List<Child> out = new ArrayList<>();
        for (ChildStats c : supervisor.children()) {
            if (c.generation() == supervisor.generation() && !c.draining()) {
                out.add((Child) c);
            }
        }
        return out;
    }

    /** One {@code GET /} on a new connection ({@code Connection: close}); the whole response as text. */
    static String get(int port, int timeoutMs) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), timeoutMs);
            s.setSoTimeout(timeoutMs);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** Clients each sending requests on new connections until stopped; counts successes and failures. */
    static final class Load implements AutoCloseable {
        final AtomicInteger ok = new AtomicInteger();
        final List<String> failures = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();

        Load(int port, int clients, Duration limit) {
            long end = System.nanoTime() + limit.toNanos();
            for (int i = 0; i < clients; i++) {
                threads.add(Thread.ofPlatform().name("load-" + i).start(() -> {
                    while (running.get() && System.nanoTime() < end) {
                        try {
                            String r = get(port, 10_000);
                            if (r.startsWith("HTTP/1.1 200")) {
                                ok.incrementAndGet();
                            } else {
                                fail(r.lines().findFirst().orElse("(empty response)"));
                            }
                        } catch (IOException e) {
                            fail(e.toString());
                        }
                    }
                }));
            }
        }

        private void fail(String what) {
            synchronized (failures) {
                failures.add(what);
            }
        }

        List<String> failures() {
            synchronized (failures) {
                return List.copyOf(failures);
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    /** Captures the engine logger's records (System.Logger goes to java.util.logging in these tests). */
    static final class LogCapture extends Handler implements AutoCloseable {
        final List<LogRecord> records = new ArrayList<>();
        private final Logger logger = Logger.getLogger("org.loommpm.engine");

        LogCapture() {
            logger.addHandler(this);
        }

        @Override
        public synchronized void publish(LogRecord r) {
            records.add(r);
        }

        synchronized List<LogRecord> withId(String id) {
            return records.stream().filter(r -> r.getMessage() != null && r.getMessage().startsWith(id)).toList();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }

    static void waitFor(String what, int seconds, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        supervisor.stop(Duration.ofSeconds(5));
    }
}
