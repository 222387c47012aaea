package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.config.ServerConfig;

/** {@code PidFile}, {@code GracefulStopDelay} and {@code SetHandler health} as the parser reads them. */
class OperatorDirectivesTest {
    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    @Test
    void pidFileIsResolvedAgainstServerRootAndOffByDefault() throws Exception {
        assertNull(PidDirectives.file(parse("")));
        assertEquals(dir.resolve("run/loom.pid").toAbsolutePath().normalize(),
                PidDirectives.file(parse("ServerRoot " + dir + "\nPidFile run/loom.pid\n")));
        assertEquals(Path.of("/var/run/loom.pid"), PidDirectives.file(parse("PidFile /var/run/loom.pid\n")));
        assertThrows(ConfigException.class, () -> parse("PidFile\n"));
        assertThrows(ConfigException.class, () -> parse("<Location /x>\nPidFile x.pid\n</Location>\n"));
    }

    @Test
    void gracefulStopDelay() throws Exception {
        assertEquals(ServerConfig.DEFAULT_GRACEFUL_STOP_DELAY, parse("").engine().gracefulStopDelay());
        assertEquals(Duration.ZERO, ServerConfig.DEFAULT_GRACEFUL_STOP_DELAY);
        assertEquals(Duration.ofSeconds(5), parse("GracefulStopDelay 5\n").engine().gracefulStopDelay());
        assertEquals(Duration.ofMillis(1500), parse("GracefulStopDelay 1500ms\n").engine().gracefulStopDelay());
        assertTrue(assertThrows(ConfigException.class, () -> parse("GracefulStopDelay soon\n")).getMessage()
                .contains("GracefulStopDelay"));
    }

    @Test
    void setHandlerHealth() throws Exception {
        LoomConfig c = parse("<Location /health>\nSetHandler health\n</Location>\n");
        assertEquals("health", c.site().locations().get(0).handler());
        assertTrue(assertThrows(ConfigException.class, () -> parse("<Location /h>\nSetHandler healthz\n</Location>\n"))
                .getMessage().contains("health"));
    }
}
