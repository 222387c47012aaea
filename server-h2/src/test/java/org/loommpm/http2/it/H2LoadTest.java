package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * h2load against the h2c server: multiplexed small bodies, large bodies, connection churn, and a
 * graceful stop under load. Asserts on lost responses (started but not succeeded), never on
 * timing. Skipped when h2load is not installed.
 */
class H2LoadTest {
    private static final Pattern REQUESTS = Pattern.compile(
            "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored");
    private static final byte[] MEGABYTE = new byte[1 << 20];
    private static final Handler APP = (req, res) -> {
        if (req.path().equals("/big")) {
            res.send(MEGABYTE);
        } else {
            res.header("Content-Type", "text/plain").send("Hello, World!".getBytes(StandardCharsets.US_ASCII));
        }
    };

    /** h2load's request counts. */
    record Counts(long total, long started, long done, long succeeded, long failed, long errored) {
        long lost() {
            return started - succeeded;
        }
    }

    @BeforeAll
    static void needsH2load() {
        Tools.assumeInstalled("h2load");
    }

    static Counts h2load(int port, String path, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("h2load"));
        cmd.addAll(List.of(args));
        cmd.add("http://127.0.0.1:" + port + path);
        Tools.Result r = Tools.run(cmd.toArray(String[]::new));
        Matcher m = REQUESTS.matcher(r.stdout());
        assertTrue(m.find(), () -> "no request counts in h2load's output:\n" + r.stdout() + r.stderr());
        return new Counts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)), Long.parseLong(m.group(5)), Long.parseLong(m.group(6)));
    }

    @Test
    void multiplexedSmallBodies() throws Exception {
        try (H2Server server = H2Server.start(APP)) {
            Counts c = h2load(server.port(), "/", "-n", "20000", "-c", "10", "-m", "50");
            assertEquals(20000, c.succeeded(), c.toString());
            assertEquals(0, c.failed(), c.toString());
            assertEquals(0, c.errored(), c.toString());
        }
    }

    @Test
    void largeBodiesArriveWhole() throws Exception {
        try (H2Server server = H2Server.start(APP)) {
            Tools.Result r = Tools.run("h2load", "-n", "100", "-c", "4", "-m", "10",
                    "http://127.0.0.1:" + server.port() + "/big");
            Matcher m = REQUESTS.matcher(r.stdout());
            assertTrue(m.find(), r.stdout());
            assertEquals("100", m.group(4), r.stdout());
            // Every byte of every body: h2load counts data bytes received.
            Matcher data = Pattern.compile("traffic: .*\\((\\d+)\\) data").matcher(r.stdout());
            assertTrue(data.find(), r.stdout());
            assertEquals(100L * MEGABYTE.length, Long.parseLong(data.group(1)), r.stdout());
        }
    }

    @Test
    void churnLosesNoResponse() throws Exception {
        try (H2Server server = H2Server.start(APP)) {
            for (int run = 1; run <= 3; run++) {
                Counts c = h2load(server.port(), "/", "-n", "30000", "-c", "50", "-m", "1");
                assertEquals(0, c.lost(), "run " + run + ": " + c);
            }
        }
    }

    /** The same app served by the pollers where it may (Session.serveOnPoller): one at a time, multiplexed, large. */
    @Test
    void aNonBlockingAppOnThePollersLosesNothing() throws Exception {
        try (H2Server server = H2Server.start(Handler.nonBlocking(APP))) {
            Counts one = h2load(server.port(), "/", "-n", "30000", "-c", "50", "-m", "1");
            assertEquals(30000, one.succeeded(), one.toString());
            Counts many = h2load(server.port(), "/", "-n", "20000", "-c", "10", "-m", "50");
            assertEquals(20000, many.succeeded(), many.toString());
            Counts big = h2load(server.port(), "/big", "-n", "200", "-c", "4", "-m", "1");
            assertEquals(200, big.succeeded(), big.toString());
            assertEquals(0, one.failed() + one.errored() + many.failed() + many.errored() + big.failed() + big.errored());
        }
    }

    @Test
    void gracefulStopUnderLoadLosesNoStartedStream() throws Exception {
        H2Server server = H2Server.start(APP);
        // A FutureTask, not a bare thread: get() rethrows what fails there.
        FutureTask<Counts> load = new FutureTask<>(() -> h2load(server.port(), "/", "-n", "200000", "-c", "10", "-m", "20"));
        Thread.ofPlatform().start(load);
        TestWait.until("streams under way", 30, () -> server.stats().streamsStarted() > 2000);
        server.stop();
        Counts result = load.get(120, TimeUnit.SECONDS);
        long started = server.stats().streamsStarted();
        long completed = server.stats().responsesCompleted();
        assertEquals(started, completed, "every stream the server started was answered");
        assertTrue(started > 0);
        assertEquals(completed, result.succeeded(), "every completed response reached h2load: " + result);
    }
}
