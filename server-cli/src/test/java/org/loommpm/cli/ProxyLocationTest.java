package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TargetEcho;

/**
 * Issue 51: a {@code <Location>}'s {@code Require} and the {@code ProxyPass} beside it see one
 * path, and the backend is sent that path. Before, {@code /b/secret;x=1} passed the deny (the
 * section compares whole segments, {@code secret;x=1} is not {@code secret}) and went to the
 * backend, where a Servlet container drops the parameter and serves {@code /app/secret}. Raw
 * sockets, so each target is sent as written; the backend answers with the target it read.
 */
class ProxyLocationTest {
    @TempDir
    static Path dir;

    private static LoomServer backend;
    private static SiteServer site;

    @BeforeAll
    static void start() throws Exception {
        backend = LoomServer.builder().listen("127.0.0.1", 0).handler((req, res) -> res.send(req.rawTarget())).start();
        site = SiteServer.start(dir, """
                ProxyPass /b/ http://127.0.0.1:%d/app/
                <Location /b/secret>
                    Require all denied
                </Location>
                """.formatted(backend.port()));
    }

    @AfterAll
    static void stop() {
        site.close();
        backend.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // target                          | status and what the backend got
        "/b/x                              | 200 /app/x",
        "/b/secret                         | 403",
        "/b/secret/x                       | 403",
        "/b/secret;x=1                     | 403",
        "/b/secret;x=1/admin               | 403",
        "/b/secret%3Bx                     | 403",
        "/b/secret.                        | 400",
        "/b/secret%2e                      | 400",
        "/b/secret./x                      | 400",
        "/b/secret/../ok                   | 200 /app/ok",
        "/b/x/../../b/y                    | 200 /app/y",
        "/b/x/../../y                      | 404",
        "/b/x/..;/secret                   | 403",
        "/b/x/..;y=1/secret                | 403",
        "/b/;x/secret                      | 403",
        "/b//secret                        | 403",
        "/b/x/%2e%2e/secret                | 403",
        "/b/secret%2Fx                     | 404",
        "/b/pub;jsessionid=abc.n1          | 200 /app/pub;jsessionid=abc.n1",
        "/b/secretary                      | 200 /app/secretary",
        "http://localhost/b/y              | 200 /app/y",
        "http://localhost/b/secret;x=1     | 403",
    })
    void theDenyCoversEveryTargetThatReachesTheDeniedResource(String target, String answer) throws Exception {
        assertEquals(answer, TargetEcho.get(site.port(), target), target);
    }
}
