package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.images.PullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * The public h2spec conformance suite (the summerwind/h2spec image) against the h2c server:
 * every test must pass. Needs a Docker daemon and that image; skipped, saying which is missing,
 * without them (the frame-level tests of this module are the coverage that always runs).
 *
 * <p>The image is used only if the daemon already has it, unless {@code -Dh2spec.pull=true}
 * lets Testcontainers pull it from Docker Hub: the build assumes no registry. On Linux the
 * container shares the host's network and reaches the server on 127.0.0.1; elsewhere the
 * server's port is exposed through Testcontainers' own container (testcontainers/sshd, pulled
 * too).
 */
class H2specTest {
    static final String IMAGE = "summerwind/h2spec:2.6.0";

    @Test
    void everyH2specTestPasses() throws Exception {
        boolean pull = Boolean.getBoolean("h2spec.pull");
        String missing = missing(pull);
        assumeTrue(missing == null, missing);
        boolean hostNetwork = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux");
        try (H2Server server = H2Server.start((req, res) -> {
            req.body().transferTo(OutputStream.nullOutputStream());
            res.send("ok");
        })) {
            if (!hostNetwork) {
                Testcontainers.exposeHostPorts(server.port());
            }
            try (GenericContainer<?> h2spec = new GenericContainer<>(DockerImageName.parse(IMAGE))
                    .withImagePullPolicy(pull ? PullPolicy.defaultPolicy() : name -> false)
                    .withNetworkMode(hostNetwork ? "host" : null)
                    .withCommand("-h", hostNetwork ? "127.0.0.1" : "host.testcontainers.internal",
                            "-p", Integer.toString(server.port()), "-o", "5")
                    .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(5)))) {
                String logs;
                try {
                    h2spec.start();
                    logs = h2spec.getLogs();
                } catch (RuntimeException e) {
                    throw new AssertionError("h2spec reported failures:\n" + h2spec.getLogs(), e);
                }
                assertTrue(logs.matches("(?s).*\\d+ tests, \\d+ passed, 0 skipped, 0 failed.*"), logs);
            }
        }
    }

    /** Why the test cannot run here, or null. */
    private static String missing(boolean pull) {
        String host = System.getenv("DOCKER_HOST");
        String where = "DOCKER_HOST " + (host == null || host.isBlank() ? "unset" : host) + ", /var/run/docker.sock "
                + (Files.exists(Path.of("/var/run/docker.sock")) ? "present" : "absent");
        try {
            var docker = DockerClientFactory.instance().client();
            if (pull) {
                return null;
            }
            try {
                docker.inspectImageCmd(IMAGE).exec();
                return null;
            } catch (RuntimeException e) {
                return "the image " + IMAGE + " is not in the local Docker daemon, and it is not pulled: the build"
                        + " assumes no registry (-Dh2spec.pull=true pulls it from Docker Hub). Nor can it be built here:"
                        + " h2spec is a Go program published as GitHub release binaries, not packaged by Debian"
                        + " (apt-cache policy h2spec: no candidate). To run this test offline, docker load an image"
                        + " with that tag whose entrypoint is the h2spec binary (e.g. FROM scratch, COPY h2spec /,"
                        + " ENTRYPOINT [\"/h2spec\"], built where the binary is at hand)";
            }
        } catch (RuntimeException | LinkageError e) {
            return "Docker is not available (" + where + "): " + String.valueOf(e.getMessage()).replace(
                    "Could not find a valid Docker environment. Please see logs and check configuration",
                    "Testcontainers found no daemon to talk to");
        }
    }
}
