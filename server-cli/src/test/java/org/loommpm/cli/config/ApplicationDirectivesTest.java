package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Application;
import org.loommpm.api.Router;
import org.loommpm.cli.apps.ApplicationSpec;
import org.loommpm.cli.it.app.DemoApplication;
import org.loommpm.config.WebSocketSettings;

/**
 * {@code LoadApplication}, {@code ApplicationParam}, {@code SetHandler NAME} and the
 * {@code WebSocket*} directives: values, defaults and the errors {@code -t} reports. The test class
 * path declares {@link DemoApplication} as an {@link Application} service.
 */
class ApplicationDirectivesTest {
    private static final String DEMO = DemoApplication.class.getName();

    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private String error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text)).getMessage();
    }

    @Test
    void webSocketDirectivesSetTheEngineSettings() throws Exception {
        assertEquals(WebSocketSettings.DEFAULTS, parse("Listen 127.0.0.1:9101").engine().webSocket());
        WebSocketSettings ws = parse("""
                WebSocketMaxFrameSize 4096
                WebSocketMaxMessageSize 65536
                WebSocketIdleTimeout 10mi
                WebSocketPingInterval 30
                WebSocketDeflate Off
                """).engine().webSocket();
        assertEquals(new WebSocketSettings(4096, 65536, Duration.ofMinutes(10), Duration.ofSeconds(30), false), ws);
        assertTrue(error("WebSocketMaxFrameSize 100").contains("WebSocketMaxFrameSize"));
        assertTrue(error("WebSocketIdleTimeout 0").contains("WebSocketIdleTimeout"));
        assertTrue(error("WebSocketDeflate maybe").contains("WebSocketDeflate"));
        assertEquals(Duration.ZERO, parse("WebSocketPingInterval 0").engine().webSocket().pingInterval());
    }

    @Test
    void loadsAnApplicationFromTheClassPathAndMountsIt() throws Exception {
        LoomConfig c = parse("LoadApplication Demo " + DEMO + "\nApplicationParam demo greeting hi\n"
                + "ApplicationParam demo greeting hello\n<Location /app>\nSetHandler demo\n</Location>\n");
        List<ApplicationSpec> apps = ApplicationDirectives.of(c);
        assertEquals(1, apps.size());
        ApplicationSpec a = apps.get(0);
        assertEquals("demo", a.name());
        assertNull(a.jar());
        assertEquals(Map.of("greeting", "hello"), a.parameters(), "a later ApplicationParam wins");
        assertEquals(DemoApplication.class, a.provider().type());
        assertEquals("demo", c.site().locations().get(0).handler());
        // The provider creates a working application: its routes go into a router.
        Router r = new Router();
        a.provider().get().routes(r, a.context());
        assertTrue(ApplicationDirectives.of(parse("Listen 127.0.0.1:9101")).isEmpty());
    }

    @Test
    void sameAsComparesEverythingThatChangesTheInstance() throws Exception {
        ApplicationSpec a = ApplicationDirectives.of(parse("LoadApplication demo " + DEMO)).get(0);
        ApplicationSpec b = ApplicationDirectives.of(parse("LoadApplication demo " + DEMO)).get(0);
        ApplicationSpec p = ApplicationDirectives.of(parse("LoadApplication demo " + DEMO + "\nApplicationParam demo k v"))
                .get(0);
        assertTrue(a.sameAs(b));
        assertFalse(a.sameAs(p));
    }

    @Test
    void errorsNameTheProblem() {
        assertTrue(error("LoadApplication demo org.example.Missing").contains(
                "LM2400 LoadApplication demo: class org.example.Missing not found on the class path"));
        assertTrue(error("LoadApplication demo java.lang.String").contains("does not implement org.loommpm.api.Application"));
        assertTrue(error("LoadApplication demo " + NotDeclared.class.getName()).contains("is not declared as a service"));
        assertTrue(error("LoadApplication demo " + DEMO + " nope.jar").contains("LM2400 LoadApplication demo: cannot read the jar"));
        assertTrue(error("LoadApplication server-status " + DEMO).contains("built-in handler name"));
        assertTrue(error("LoadApplication a/b " + DEMO).contains("is not a handler name"));
        assertTrue(error("LoadApplication demo " + DEMO + "\nLoadApplication demo " + DEMO).contains("already loaded (line 1)"));
        assertTrue(error("ApplicationParam demo k v").contains("no application 'demo' was loaded before this line"));
        String early = error("<Location /app>\nSetHandler demo\n</Location>\nLoadApplication demo " + DEMO);
        assertTrue(early.contains("unknown handler 'demo'") && early.contains("must be loaded with LoadApplication before"),
                early);
        assertTrue(error("LoadApplication demo " + DEMO + "\n<Location /a>\nSetHandler other\n</Location>")
                .contains("the applications loaded above: demo"));
    }

    /** An application nobody declared as a service. */
    public static final class NotDeclared implements Application {
        @Override
        public void routes(Router router, Context context) {
        }
    }
}
