package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.testing.H2c;
import org.loommpm.testing.LoomServerSetup;
import org.loommpm.testing.LoomServerTest;

/**
 * README.md's loom-mpm-testing example as it stands there (server-cli's DocSnippetsTest checks
 * that it still does), here because its h2c test needs server-h2 on the class path.
 */
@LoomServerTest
class HelloTest {
    @LoomServerSetup
    static Router routes() {
        return new Router().get("/hello", (req, res) -> res.send("hi " + req.protocol()));
    }

    @Test
    void hello(HttpClient client, URI base) throws Exception {
        var r = client.send(HttpRequest.newBuilder(base.resolve("/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("hi HTTP/1.1", r.body());
    }

    @Test
    void helloOverH2c(@H2c HttpClient client, URI base) throws Exception {
        var r = client.send(HttpRequest.newBuilder(base.resolve("/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
    }
}
