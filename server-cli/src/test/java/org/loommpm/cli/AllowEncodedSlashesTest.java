package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TargetEcho;

/**
 * {@code AllowEncodedSlashes}: Off (the default, as httpd's) refuses a {@code %2F} with 404; On
 * makes it a {@code /} of the one decoded path, which {@code <Location>}, {@code Require} and the
 * proxy all read, so an encoded slash cannot slip past a rule; NoDecode is refused at start.
 */
class AllowEncodedSlashesTest {
    private static final String RULES = """
            ProxyPass /b/ http://127.0.0.1:%d/app/
            <Location /b/secret>
                Require all denied
            </Location>
            """;

    @TempDir
    Path dir;

    @Test
    void offRefusesAnEncodedSlashWith404() throws Exception {
        try (LoomServer backend = echo(); SiteServer site = SiteServer.start(dir, RULES.formatted(backend.port()))) {
            assertEquals("404", TargetEcho.get(site.port(), "/b/pub%2Fx"));
            assertEquals("404", TargetEcho.get(site.port(), "/b/secret%2Fx"));
        }
    }

    @Test
    void onDecodesItForEveryRuleAndTheBackendAlike() throws Exception {
        try (LoomServer backend = echo();
             SiteServer site = SiteServer.start(dir, "AllowEncodedSlashes On\n" + RULES.formatted(backend.port()))) {
            assertEquals("200 /app/pub/x", TargetEcho.get(site.port(), "/b/pub%2Fx"));
            assertEquals("403", TargetEcho.get(site.port(), "/b/secret%2Fx"), "the deny sees /b/secret/x");
            assertEquals("403", TargetEcho.get(site.port(), "/b%2Fsecret"), "the deny sees /b/secret");
            assertEquals("404", TargetEcho.get(site.port(), "/b/x%5Cy"), "an encoded backslash stays refused");
        }
    }

    @Test
    void noDecodeIsRefusedAtStart() throws Exception {
        Files.createDirectories(dir);
        Exception e = assertThrows(Exception.class, () -> SiteServer.start(dir, "AllowEncodedSlashes NoDecode\n"));
        Throwable t = e;
        while (!(t instanceof ConfigException) && t.getCause() != null) {
            t = t.getCause();
        }
        assertTrue(t.getMessage().contains("NoDecode is not supported"), t.getMessage());
    }

    private static LoomServer echo() throws IOException {
        return LoomServer.builder().listen("127.0.0.1", 0).handler((req, res) -> res.send(req.rawTarget())).start();
    }
}
