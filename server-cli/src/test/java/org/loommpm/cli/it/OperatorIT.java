package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * httpd's operator habits against the running jar: the {@code PidFile} written at start and
 * removed at stop, {@code -k} finding the server through it and sending USR1, HUP, WINCH and
 * TERM, a stale pid file overwritten; and {@code SetHandler health} through a graceful stop with
 * {@code GracefulStopDelay}: not ready while new connections are still served, then refused.
 * Signals go only to the jar processes this test starts (through their own PidFile).
 */
class OperatorIT {
    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Path config(int port, String extra) throws IOException {
        Path conf = dir.resolve("loom.conf");
        Files.writeString(conf, "Listen 127.0.0.1:" + port + "\nErrorLog error.log\nPidFile run.pid\n"
                + "<Location /health>\nSetHandler health\n</Location>\n" + extra);
        return conf;
    }

    private long pidInFile() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("run.pid")).strip());
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitLog(JarProcess server, String text) throws Exception {
        server.awaitFile(dir.resolve("error.log"), s -> s.contains(text), Duration.ofSeconds(20));
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void dashKDrivesTheServerThroughItsPidFile() throws Exception {
        config(0, "");
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            int port = server.port();
            config(port, ""); // the restarts below keep the bound port (a Listen of port 0 would bind another)
            assertEquals(server.pid(), pidInFile());
            assertEquals(200, get(port, "/health/live").statusCode());
            assertEquals(200, get(port, "/health/ready").statusCode());

            JarProcess.Result start = JarProcess.run(dir, "-f", "loom.conf", "-k", "start");
            assertEquals(0, start.exit(), start.err());
            assertTrue(start.out().contains("loom-mpm (pid " + server.pid() + ") already running"), start.out());

            JarProcess.Result graceful = JarProcess.run(dir, "-f", "loom.conf", "-k", "graceful");
            assertEquals(0, graceful.exit(), graceful.err());
            awaitLog(server, "generation 2 serving");
            JarProcess.Result restart = JarProcess.run(dir, "-f", "loom.conf", "-k", "restart");
            assertEquals(0, restart.exit(), restart.err());
            awaitLog(server, "generation 3 serving");
            assertEquals(200, get(port, "/health/ready").statusCode());

            JarProcess.Result stop = JarProcess.run(dir, "-f", "loom.conf", "-k", "graceful-stop");
            assertEquals(0, stop.exit(), stop.err());
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            assertFalse(Files.exists(dir.resolve("run.pid")), "removed at stop");
            String log = Files.readString(dir.resolve("error.log"));
            assertTrue(log.contains("LM0009 loom-mpm stopped"), log);
        }
        JarProcess.Result again = JarProcess.run(dir, "-f", "loom.conf", "-k", "stop");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("loom-mpm (no pid file) not running"), again.out());
    }

    @Test
    void kStopSendsTermAndAStalePidFileIsOverwritten() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
        Files.writeString(dir.resolve("run.pid"), gone.pid() + "\n");
        config(0, "");
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            assertEquals(server.pid(), pidInFile());
            awaitLog(server, "LM1901");
            assertTrue(Files.readString(dir.resolve("error.log")).contains("named process " + gone.pid()
                    + ", which is not running"));
            JarProcess.Result stop = JarProcess.run(dir, "-f", "loom.conf", "-k", "stop");
            assertEquals(0, stop.exit(), stop.err());
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            assertFalse(Files.exists(dir.resolve("run.pid")));
        }
    }

    @Test
    void kStartServesWhenNoneRunsAndUsr1RestartsGracefully() throws Exception {
        config(0, "");
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf", "-k", "start")) {
            assertEquals(server.pid(), pidInFile());
            server.signal("USR1");
            awaitLog(server, "generation 2 serving");
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            assertEquals(1, count(Files.readString(dir.resolve("error.log")), "LM0009"));
        }
    }

    @Test
    void readinessTurnsOffBeforeTheListenerCloses() throws Exception {
        config(0, "GracefulStopDelay 4\n");
        int port;
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            port = server.port();
            assertEquals(200, get(port, "/health/ready").statusCode());
            server.signal("TERM");
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            int status = 200;
            while (status == 200 && System.nanoTime() < end) {
                status = get(port, "/health/ready").statusCode(); // a refused connection fails the test
                Thread.sleep(20);
            }
            assertEquals(503, status);
            // Still accepting: a new connection is served (a balancer that has not noticed yet).
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                s.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
                assertTrue(answer.endsWith("{\"status\":\"UP\"}\n"), answer);
            }
            HttpResponse<String> ready = get(port, "/health/ready");
            assertEquals(503, ready.statusCode());
            assertEquals("{\"status\":\"DOWN\",\"reason\":\"stopping\"}\n", ready.body());
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            String log = Files.readString(dir.resolve("error.log"));
            assertTrue(log.indexOf("LM1900") < log.indexOf("LM0006"), log);
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            throw new AssertionError("still accepting after the stop");
        } catch (java.net.ConnectException expected) {
            // the listener is closed
        }
    }
}
