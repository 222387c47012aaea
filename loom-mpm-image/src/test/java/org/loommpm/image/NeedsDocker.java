package org.loommpm.image;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * A test class that runs the image in a Docker daemon: skipped, with the reason in the report,
 * where none answers (no daemon, no socket, a daemon that refuses the client). The daemon is
 * found as Testcontainers finds it ({@code DOCKER_HOST}, then {@code /var/run/docker.sock}, then
 * the other usual places); .ci/run starts one where it can (docs/deploy.md, "Under real faults").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsDocker.Condition.class)
@interface NeedsDocker {

    /** Asks once per JVM; every class after the first gets the same answer. */
    final class Condition implements ExecutionCondition {
        private static String unavailable;
        private static boolean asked;

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String why = unavailable();
            return why == null ? ConditionEvaluationResult.enabled("a Docker daemon answers")
                    : ConditionEvaluationResult.disabled(why);
        }

        static synchronized String unavailable() {
            if (!asked) {
                unavailable = ask();
                asked = true;
            }
            return unavailable;
        }

        private static String ask() {
            String host = System.getenv("DOCKER_HOST");
            String where = "DOCKER_HOST " + (host == null || host.isBlank() ? "unset" : host)
                    + ", /var/run/docker.sock " + (Files.exists(Path.of("/var/run/docker.sock")) ? "present" : "absent");
            String failure;
            try {
                var client = DockerClientFactory.instance().client();
                var version = client.versionCmd().exec();
                System.out.printf("Docker daemon %s (API %s) at %s%n", version.getVersion(), version.getApiVersion(),
                        DockerClientFactory.instance().getTransportConfig().getDockerHost());
                return null;
            } catch (RuntimeException | LinkageError e) {
                // Testcontainers' own message points at its logs, which go nowhere here (no SLF4J binding).
                failure = String.valueOf(e.getMessage()).replace(
                        "Could not find a valid Docker environment. Please see logs and check configuration",
                        "Testcontainers found no daemon to talk to").replaceAll("\\.+$", "");
            }
            String why = "Docker is not available (" + where + "): " + failure
                    + ". These tests run the image in a local daemon; .ci/run starts dockerd where it can"
                    + " (docs/deploy.md, \"Under real faults\").";
            System.out.println("container tests skipped: " + why);
            return why;
        }
    }
}
