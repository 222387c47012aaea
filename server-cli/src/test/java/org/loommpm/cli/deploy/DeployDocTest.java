package org.loommpm.cli.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * docs/deploy.md's manifests parse as YAML, and their numbers agree with each other and with the
 * server: the grace period covers the preStop sleep, GracefulShutdownTimeout and the child kill
 * delay; the probes ask the health location the ConfigMap's configuration declares; the pod
 * runs as the image's user with the image's volumes; the systemd unit's stop timeout covers the
 * graceful stop and its reload sends SIGHUP.
 */
class DeployDocTest {
    /** A child process still running this long after GracefulShutdownTimeout is killed (docs/operations.md). */
    static final int CHILD_KILL_DELAY_SECONDS = 3;
    static String doc;
    static List<Map<String, Object>> manifests = new ArrayList<>();

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void read() throws Exception {
        doc = Files.readString(Path.of("..", "docs", "deploy.md"));
        Load yaml = new Load(LoadSettings.builder().build());
        for (String block : blocks("yaml")) {
            for (Object o : yaml.loadAllFromString(block)) {
                Map<String, Object> m = (Map<String, Object>) o;
                assertNotNull(m.get("apiVersion"), block);
                assertNotNull(m.get("kind"), block);
                manifests.add(m);
            }
        }
    }

    @Test
    void theManifestsAreTheExpectedKinds() {
        assertEquals(List.of("ConfigMap", "Deployment", "Service", "PodDisruptionBudget"),
                manifests.stream().map(m -> m.get("kind")).toList());
    }

    @Test
    void theGracePeriodCoversPreStopAndTheGracefulStop() {
        Map<String, Object> pod = podSpec();
        int preStop = (Integer) get(container(), "lifecycle", "preStop", "sleep", "seconds");
        int grace = (Integer) pod.get("terminationGracePeriodSeconds");
        int graceful = directive(config(), "GracefulShutdownTimeout");
        assertTrue(preStop > 0);
        assertTrue(grace >= preStop + graceful + CHILD_KILL_DELAY_SECONDS,
                "terminationGracePeriodSeconds " + grace + " < preStop " + preStop + " + GracefulShutdownTimeout "
                        + graceful + " + " + CHILD_KILL_DELAY_SECONDS);
    }

    @Test
    void theProbesAskTheHealthLocationOfTheConfiguration() {
        String conf = config();
        Matcher location = Pattern.compile("<Location (\\S+)>\\s*\\n\\s*SetHandler health").matcher(conf);
        assertTrue(location.find(), conf);
        String prefix = location.group(1);
        assertEquals(prefix + "/ready", get(container(), "readinessProbe", "httpGet", "path"));
        assertEquals(prefix + "/live", get(container(), "livenessProbe", "httpGet", "path"));
        assertEquals(prefix + "/live", get(container(), "startupProbe", "httpGet", "path"));
        assertEquals(1, get(container(), "readinessProbe", "failureThreshold"), "not-ready is noticed at once");
        int port = directive(conf, "Listen");
        @SuppressWarnings("unchecked")
        Map<String, Object> containerPort = ((List<Map<String, Object>>) container().get("ports")).get(0);
        assertEquals(port, containerPort.get("containerPort"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePodRunsAsTheImagesUserWithItsVolumes() {
        assertEquals(65532, get(podSpec(), "securityContext", "runAsUser"));
        assertEquals(true, get(podSpec(), "securityContext", "runAsNonRoot"));
        List<String> mounts = ((List<Map<String, Object>>) container().get("volumeMounts")).stream()
                .map(m -> (String) m.get("mountPath")).toList();
        assertTrue(mounts.containsAll(List.of("/etc/loom-mpm", "/srv/loom-mpm/htdocs", "/tmp")), mounts.toString());
    }

    @Test
    void theSystemdUnitReloadsWithHupAndWaitsForTheGracefulStop() {
        List<String> units = blocks("ini");
        assertEquals(1, units.size());
        String unit = units.get(0);
        assertTrue(unit.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"), unit);
        assertTrue(unit.contains("\nKillMode=mixed\n"), unit);
        Matcher stop = Pattern.compile("\\nTimeoutStopSec=(\\d+)\\n").matcher(unit);
        assertTrue(stop.find(), unit);
        assertTrue(Integer.parseInt(stop.group(1)) >= directive(config(), "GracefulShutdownTimeout")
                + CHILD_KILL_DELAY_SECONDS);
        Matcher ready = Pattern.compile("\\nExecStartPost=.*curl .*http://127\\.0\\.0\\.1:(\\d+)(/\\S+)\\n").matcher(unit);
        assertTrue(ready.find(), unit);
        assertEquals(directive(config(), "Listen"), Integer.parseInt(ready.group(1)));
        assertTrue(ready.group(2).endsWith("/ready"), ready.group(2));
        assertFalse(unit.contains("Type=notify"), "the JVM cannot send sd_notify's datagram (see the doc)");
    }

    private static List<String> blocks(String language) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        while (m.find()) {
            out.add(m.group(1));
        }
        assertFalse(out.isEmpty(), "no " + language + " block in docs/deploy.md");
        return out;
    }

    private static Map<String, Object> manifest(String kind) {
        return manifests.stream().filter(m -> kind.equals(m.get("kind"))).findFirst().orElseThrow();
    }

    private static String config() {
        return (String) get(manifest("ConfigMap"), "data", "loom-mpm.conf");
    }

    private static int directive(String conf, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\d+)$").matcher(conf);
        assertTrue(m.find(), name + " in " + conf);
        return Integer.parseInt(m.group(1));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> podSpec() {
        return (Map<String, Object>) get(manifest("Deployment"), "spec", "template", "spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container() {
        return ((List<Map<String, Object>>) podSpec().get("containers")).get(0);
    }

    @SuppressWarnings("unchecked")
    private static Object get(Map<String, Object> map, String... path) {
        Object o = map;
        for (String key : path) {
            o = ((Map<String, Object>) o).get(key);
            assertNotNull(o, String.join(".", path));
        }
        return o;
    }
}
