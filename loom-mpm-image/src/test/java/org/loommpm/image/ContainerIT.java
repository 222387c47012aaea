package org.loommpm.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The image as a container: the built tar loaded into the local daemon (nothing pulled), run
 * as a deployment would run it (docs/deploy.md): read-only root filesystem, the image's
 * non-root account, /tmp a tmpfs, configuration and docroot from read-only volumes. Checks that
 * it serves them and answers its probes, that {@code docker kill -s HUP} is a graceful restart
 * onto the changed configuration, and that {@code docker stop} is a graceful stop that exits 0
 * well inside the grace time. Skipped without a Docker daemon ({@link NeedsDocker}).
 */
@NeedsDocker
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ContainerIT {
    private static final Duration START = Duration.ofSeconds(90);
    private static DockerImageName image;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final DockerClient docker = DockerClientFactory.instance().client();

    @BeforeAll
    static void load() throws Exception {
        image = LocalImage.load();
    }

    private static String conf(String extra) {
        return """
                Listen 8080
                DirectoryIndex index.html
                GracefulShutdownTimeout 10
                <Location /health>
                    SetHandler health
                </Location>
                LogLevel info
                ErrorLog /dev/stderr
                CustomLog /dev/stdout common
                """ + extra;
    }

    private GenericContainer<?> start(String name, String conf, String index) throws Exception {
        Path confDir = LocalImage.directory(name + "-conf", Map.of("loom-mpm.conf", conf));
        Path htdocs = LocalImage.directory(name + "-htdocs", Map.of("index.html", index));
        GenericContainer<?> c = LocalImage.publishedOnLoopback(LocalImage.container(image, confDir, htdocs))
                .waitingFor(Wait.forHttp("/health/ready").forPort(8080).forStatusCode(200).withStartupTimeout(START));
        c.start();
        return c;
    }

    @Test
    void runsReadOnlyAsTheNonRootAccountAndServesTheVolumes() throws Exception {
        try (GenericContainer<?> c = start("volumes", conf(""), "served from the volume\n")) {
            var inspect = docker.inspectContainerCmd(c.getContainerId()).exec();
            assertTrue(inspect.getHostConfig().getReadonlyRootfs(), "started with --read-only");

            // The server's own process, as the host's ps sees it: uid 65532, not 0.
            var top = docker.topContainerCmd(c.getContainerId()).withPsArgs("-o pid,uid,args").exec();
            int uidColumn = Arrays.asList(top.getTitles()).indexOf("UID");
            List<String[]> java = Arrays.stream(top.getProcesses()).filter(p -> p[p.length - 1].contains("loom-mpm.jar"))
                    .toList();
            assertEquals(1, java.size(), () -> "one server process: " + Arrays.deepToString(top.getProcesses()));
            assertEquals("65532", java.get(0)[uidColumn].strip(), "the image's loom account");

            // The root filesystem refuses writes (EROFS, not a permission error); /tmp takes them.
            var rootWrite = c.execInContainer("/opt/java/bin/java", "-Xlog:gc:file=/srv/loom-mpm/probe.log", "-version");
            assertNotEquals(0, rootWrite.getExitCode());
            String refusal = rootWrite.getStdout() + rootWrite.getStderr();
            assertTrue(refusal.contains("Read-only file system"), refusal);
            var tmpWrite = c.execInContainer("/opt/java/bin/java", "-Xlog:gc:file=/tmp/probe.log", "-version");
            assertEquals(0, tmpWrite.getExitCode(), tmpWrite.getStderr());
            var whoami = c.execInContainer("/opt/java/bin/java", "-XshowSettings:properties", "-version");
            assertTrue(whoami.getStderr().contains("user.name = loom"), whoami.getStderr());

            assertEquals(200, get(c, "/health/live").statusCode());
            assertEquals(200, get(c, "/health/ready").statusCode());
            var index = get(c, "/");
            assertEquals(200, index.statusCode());
            assertEquals("served from the volume\n", index.body());
            System.out.printf("container: uid %s, read-only root, /tmp tmpfs, volumes served%n", java.get(0)[uidColumn]);
        }
    }

    @Test
    void hupIsAGracefulRestartOntoTheChangedConfiguration() throws Exception {
        try (GenericContainer<?> c = start("hup", conf("Header set X-Generation one\n"), "hup\n")) {
            Path confFile = confDirOf(c).resolve("loom-mpm.conf");
            assertEquals("one", get(c, "/").headers().firstValue("X-Generation").orElse(null));
            String startedAt = docker.inspectContainerCmd(c.getContainerId()).exec().getState().getStartedAt();

            // Requests keep going through the restart: none may fail.
            try (var load = new Load(c)) {
                LocalImage.write(confFile, conf("Header set X-Generation two\n"));
                long t0 = System.nanoTime();
                docker.killContainerCmd(c.getContainerId()).withSignal("HUP").exec();
                waitFor(Duration.ofSeconds(30), "X-Generation: two after SIGHUP",
                        () -> "two".equals(get(c, "/").headers().firstValue("X-Generation").orElse(null)));
                System.out.printf("SIGHUP: the new configuration served after %d ms%n", (System.nanoTime() - t0) / 1_000_000);

                // An invalid file is refused; the running configuration keeps serving.
                LocalImage.write(confFile, conf("Header set X-Generation three\nNoSuchDirective on\n"));
                docker.killContainerCmd(c.getContainerId()).withSignal("HUP").exec();
                waitFor(Duration.ofSeconds(30), "LM1301 after an invalid SIGHUP", () -> c.getLogs().contains("LM1301"));
                assertEquals("two", get(c, "/").headers().firstValue("X-Generation").orElse(null));
                waitFor(Duration.ofSeconds(30), "100 GETs", () -> load.count() >= 100);
                load.assertNoFailure();
            }
            String logs = c.getLogs();
            assertTrue(logs.contains("LM0012"), logs);
            assertTrue(logs.contains("LM1303"), logs);
            var state = docker.inspectContainerCmd(c.getContainerId()).exec().getState();
            assertTrue(state.getRunning(), "still running");
            assertEquals(startedAt, state.getStartedAt(), "the same process: a restart inside it, not of it");
        }
    }

    @Test
    void stopIsGracefulAndExitsZeroInsideTheGraceTime() throws Exception {
        try (GenericContainer<?> c = start("stop", conf("GracefulStopDelay 2\n"), "stop\n")) {
            String id = c.getContainerId();
            int grace = 20;
            long t0 = System.nanoTime();
            CompletableFuture<Void> stop = CompletableFuture.runAsync(
                    () -> docker.stopContainerCmd(id).withTimeout(grace).exec());
            // GracefulStopDelay: still serving, but no longer ready, so a balancer takes it out first.
            waitFor(Duration.ofSeconds(15), "/health/ready 503 after docker stop", () -> get(c, "/health/ready").statusCode() == 503);
            long notReady = System.nanoTime() - t0;
            assertEquals(200, get(c, "/").statusCode(), "requests are still served while draining");
            stop.get(grace + 15, TimeUnit.SECONDS);
            long stopped = System.nanoTime() - t0;
            var state = docker.inspectContainerCmd(id).exec().getState();
            assertFalse(state.getRunning());
            assertEquals(0L, state.getExitCodeLong(), "exit code (137 would be the SIGKILL after the grace time)");
            assertTrue(stopped < TimeUnit.SECONDS.toNanos(grace), "stopped in " + stopped / 1_000_000 + " ms");
            String logs = c.getLogs();
            for (String logId : List.of("LM0011", "LM0006", "LM0009")) {
                assertTrue(logs.contains(logId), logId + " in\n" + logs);
            }
            System.out.printf("docker stop -t %d: not ready after %d ms, exited 0 after %d ms%n", grace,
                    notReady / 1_000_000, stopped / 1_000_000);
        }
    }

    private Path confDirOf(GenericContainer<?> c) {
        return Path.of(c.getBinds().stream().filter(b -> b.getVolume().getPath().equals("/etc/loom-mpm")).findFirst()
                .orElseThrow().getPath());
    }

    private HttpResponse<String> get(GenericContainer<?> c, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.getMappedPort(8080) + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitFor(Duration max, String what, Check check) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        Exception last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + what + " within " + max.toSeconds() + " s", last);
    }

    /** GETs of / every 20 ms on one keep-alive connection, in a thread of their own, until closed. */
    private final class Load implements AutoCloseable {
        private final List<String> failures = new ArrayList<>();
        private final Thread thread;
        private volatile boolean stop;
        private int ok;

        Load(GenericContainer<?> c) {
            thread = Thread.ofPlatform().name("load").start(() -> {
                while (!stop) {
                    try {
                        var r = get(c, "/");
                        synchronized (this) {
                            if (r.statusCode() == 200) {
                                ok++;
                            } else {
                                failures.add(r.statusCode() + " " + r.body());
                            }
                        }
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        synchronized (this) {
                            failures.add(e.toString());
                        }
                    }
                }
            });
        }

        synchronized int count() {
            return ok + failures.size();
        }

        void assertNoFailure() throws InterruptedException {
            close();
            synchronized (this) {
                System.out.printf("  %d GETs during the two SIGHUPs, %d failed%n", ok + failures.size(), failures.size());
                assertTrue(ok > 0, "requests were sent");
                assertTrue(failures.isEmpty(), failures::toString);
            }
        }

        @Override
        public void close() {
            stop = true;
            try {
                thread.join(TimeUnit.SECONDS.toMillis(20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
