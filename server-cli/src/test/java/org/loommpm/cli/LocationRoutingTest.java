package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;

/**
 * Which {@code <Location>}, {@code SetHandler} and {@code ProxyPass} a request gets, through real
 * requests to a server started from configuration text, against what httpd does.
 */
class LocationRoutingTest {
    @TempDir
    Path dir;

    private LoomServer backend;

    @BeforeEach
    void backend() throws Exception {
        backend = LoomServer.builder().listen("127.0.0.1", 0)
                .handler((req, res) -> res.send("backend " + req.rawTarget())).start();
    }

    @AfterEach
    void stopBackend() {
        backend.close();
    }

    private String backendUrl() {
        return "http://127.0.0.1:" + backend.port();
    }

    /**
     * httpd's {@code ProxyPass /app} compares whole segments (mod_proxy's alias_match): it takes
     * {@code /app} and {@code /app/x}, never {@code /apple}. Inside {@code <Location /app>} the
     * section does not even apply to {@code /apple}, so its {@code Require} must not be
     * sidestepped by a {@code ProxyPass} that still takes it.
     */
    @Test
    void proxyPassWithoutATrailingSlashTakesWholeSegmentsOnly() throws Exception {
        try (SiteServer s = SiteServer.start(dir, """
                <Location /admin>
                    Require ip 192.0.2.1
                    ProxyPass %1$s/admin
                </Location>
                ProxyPass /api %1$s/api
                """.formatted(backendUrl()))) {
            assertEquals(403, s.get("/admin").statusCode());
            assertEquals(403, s.get("/admin/users").statusCode());
            HttpResponse<String> sibling = s.get("/administrator");
            assertEquals(404, sibling.statusCode(), "outside <Location /admin>, not its backend: " + sibling.body());
            assertEquals("backend /api/v1", s.get("/api/v1").body());
            assertEquals("backend /api", s.get("/api").body());
            HttpResponse<String> apix = s.get("/apix");
            assertEquals(404, apix.statusCode(), "ProxyPass /api does not take /apix: " + apix.body());
        }
    }

    /**
     * {@code SetHandler none} undoes an outer section's handler; as in httpd (where {@code none}
     * leaves mod_proxy's handler in place) a {@code ProxyPass} then takes the request again.
     */
    @Test
    void setHandlerNoneLeavesTheRequestToProxyPass() throws Exception {
        try (SiteServer s = SiteServer.start(dir, """
                <Location />
                    SetHandler health
                </Location>
                <Location /api/>
                    SetHandler none
                </Location>
                ProxyPass /api/ %s/
                """.formatted(backendUrl()))) {
            assertEquals(200, s.get("/ready").statusCode());
            HttpResponse<String> api = s.get("/api/v1");
            assertEquals(200, api.statusCode(), api.body());
            assertEquals("backend /v1", api.body());
        }
    }
}
