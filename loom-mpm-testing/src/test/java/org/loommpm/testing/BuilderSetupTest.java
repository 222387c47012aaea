package org.loommpm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;

/** The builder form: the method configures the server (here its Server header) and sets the handler. */
@LoomServerTest
class BuilderSetupTest {
    @LoomServerSetup
    static void server(LoomServer.Builder builder) {
        builder.configure(c -> c.threadsPerChild(8).serverHeader("loom-test"))
                .handler(new Router().get("/", (req, res) -> res.send("configured")));
    }

    @Test
    void theBuilderSetUpTheServer(HttpClient client, URI base, LoomServer server) throws Exception {
        HttpResponse<String> r = Get.send(client, base);
        assertEquals("configured", r.body());
        assertEquals("loom-test", r.headers().firstValue("server").orElseThrow());
        assertEquals(8, server.config().threadsPerChild());
    }
}
