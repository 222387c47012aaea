package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@code Request.attributes()} over HTTP/1.1: a filter sets one, the handler behind it (given the
 * router's wrapper of the request) reads it, and the next request on the same keep-alive
 * connection starts with an empty map. server-h2's {@code ToolkitH2cTest} does the same per stream.
 */
class RequestAttributesTest {
    @Test
    void aFilterPassesAnAttributeToItsHandlerForOneExchangeOnly() throws Exception {
        Router router = new Router()
                .filter((req, res, next) -> {
                    String seenBefore = String.valueOf(req.attributes().keySet());
                    if (req.header("X-User") != null) {
                        req.attributes().put("user", req.header("X-User"));
                    }
                    req.attributes().put("before", seenBefore);
                    next.handle(req, res);
                })
                .get("/who/{id}", (req, res) -> res.send(req.pathParam("id") + " user=" + req.attributes().get("user")
                        + " before=" + req.attributes().get("before") + " size=" + req.attributes().size()));
        try (LoomServer server = TestServers.start(router); RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response first = http.send("GET /who/1 HTTP/1.1\r\nHost: x\r\nX-User: alice\r\n\r\n").read();
            assertEquals("1 user=alice before=[] size=2", first.text());
            RawHttp.Response second = http.send("GET /who/2 HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("2 user=null before=[] size=1", second.text(), "the same connection, a new exchange");
            // Pipelined: both requests are read from one buffer, still two maps.
            http.send("GET /who/3 HTTP/1.1\r\nHost: x\r\nX-User: bob\r\n\r\nGET /who/4 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("3 user=bob before=[] size=2", http.read().text());
            assertEquals("4 user=null before=[] size=1", http.read().text());
        }
    }
}
