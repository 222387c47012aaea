package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * server-core alone (server-h2 is not on this module's test class path) with the default
 * {@code Protocols h2 h2c http/1.1}: HTTP/2 is looked up when a client first asks for it, found
 * absent once, and every such client is answered as HTTP/1.1 would answer it.
 */
class Http2AbsentTest {
    private static final String UPGRADE = "GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n";

    @Test
    void priorKnowledgeAndUpgradeAreAnsweredAsHttp11() throws Exception {
        try (LogCapture log = new LogCapture();
                LoomServer server = TestServers.start((req, res) -> res.send("ok " + req.path()))) {
            // Before any client asked, nothing was looked up.
            assertTrue(log.find(Level.FINE, "LM0501").isEmpty());

            try (RawHttp c = new RawHttp(server.port())) {
                c.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
                assertEquals(505, c.read().status(), "the preface is an HTTP/1.1 request line of version 2.0");
                assertTrue(c.closedByServer());
            }
            for (int i = 0; i < 2; i++) {
                try (RawHttp c = new RawHttp(server.port())) {
                    c.send(UPGRADE);
                    RawHttp.Response r = c.read();
                    assertEquals(200, r.status(), "the upgrade is declined by serving the request");
                    assertEquals("ok /up", r.text());
                    assertNull(r.header("Upgrade"));
                    c.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertEquals("ok /next", c.read().text(), "still HTTP/1.1 on the same connection");
                }
            }
            assertEquals(1, log.find(Level.FINE, "LM0501").size(), "looked up once per generation");
        }
    }
}
