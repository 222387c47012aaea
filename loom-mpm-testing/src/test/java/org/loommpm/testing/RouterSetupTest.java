package org.loommpm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;

/** The handler form: a static method returning a Router; every injectable parameter. */
@LoomServerTest
class RouterSetupTest {
    private final URI base;

    RouterSetupTest(URI base) {
        this.base = base;
    }

    @LoomServerSetup
    static Router routes() {
        return new Router()
                .get("/hello", (req, res) -> res.send("hello " + req.protocol()))
                .get("/users/{id}", (req, res) -> res.send("user " + req.pathParam("id")));
    }

    @Test
    void routesAnswerOnTheInjectedBase(HttpClient client, LoomServer server) throws Exception {
        assertEquals(URI.create("http://127.0.0.1:" + server.port() + "/"), base);
        HttpResponse<String> r = Get.send(client, base.resolve("/users/7"));
        assertEquals(200, r.statusCode());
        assertEquals("user 7", r.body());
        assertEquals(404, Get.send(client, base.resolve("/none")).statusCode());
    }

    @Test
    void theDefaultClientSpeaksHttp11(HttpClient client) throws Exception {
        HttpResponse<String> r = Get.send(client, base.resolve("/hello"));
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals("hello HTTP/1.1", r.body());
    }

    @Test
    void theH2cClientAsksForHttp2(@H2c HttpClient h2c, HttpClient h1) {
        assertEquals(HttpClient.Version.HTTP_2, h2c.version());
        assertEquals(HttpClient.Version.HTTP_1_1, h1.version());
    }

    @Test
    void theSameServerServesEveryTestOfTheClass(LoomServer server) {
        assertEquals(base.getPort(), server.port());
    }

    /** A nested class without a set-up method of its own uses the enclosing class's server. */
    @Nested
    class Inner {
        @Test
        void usesTheEnclosingServer(HttpClient client, URI innerBase) throws Exception {
            assertEquals(base, innerBase);
            assertEquals("user 1", Get.send(client, innerBase.resolve("/users/1")).body());
        }
    }
}
