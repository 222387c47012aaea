package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * The public h2spec conformance suite (summerwind/h2spec) against the h2c server: every test
 * must pass. Needs Docker; skipped cleanly without it (the frame-level tests of this module are
 * the coverage that always runs).
 */
class H2specTest {
    @Test
    void everyH2specTestPasses() throws Exception {
        assumeTrue(dockerAvailable(), "Docker is not available");
        try (H2Server server = H2Server.start((req, res) -> {
            req.body().transferTo(OutputStream.nullOutputStream());
            res.send("ok");
        })) {
            Testcontainers.exposeHostPorts(server.port());
            try (GenericContainer<?> h2spec = new GenericContainer<>(DockerImageName.parse("summerwind/h2spec:2.6.0"))
                    .withCommand("-h", "host.testcontainers.internal", "-p", Integer.toString(server.port()),
                            "-o", "5")
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

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
