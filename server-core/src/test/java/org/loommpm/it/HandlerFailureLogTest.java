package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * A handler that throws on every request is logged once per request (LM0401: the exception's
 * class and message), with its stack trace only the first time in a minute from that throw site:
 * a trace per request flooded the error log (113 MB in 10 s of wrk, issue 51).
 */
class HandlerFailureLogTest {
    @Test
    void everyFailureIsALineButTheTraceIsNotRepeated() throws Exception {
        Logger http1 = Logger.getLogger("org.loommpm.http1");
        Level before = http1.getLevel();
        try (LogCapture logs = new LogCapture();
             LoomServer server = TestServers.start((req, res) -> {
                 throw new IllegalStateException("boom " + req.path());
             })) {
            http1.setLevel(Level.INFO); // at debug every trace is logged
            for (int i = 0; i < 3; i++) {
                try (RawHttp c = new RawHttp(server.port(), 3000)) {
                    c.send("GET /r" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertEquals(500, c.read().status());
                }
            }
            List<LogRecord> lines = logs.find(Level.SEVERE, "LM0401");
            assertEquals(3, lines.size(), "one line per failure");
            for (int i = 0; i < 3; i++) {
                assertTrue(lines.get(i).getMessage().contains("GET /r" + i + ": java.lang.IllegalStateException: boom /r" + i),
                        lines.get(i).getMessage());
            }
            assertNotNull(lines.get(0).getThrown(), "the first failure's stack trace");
            assertNull(lines.get(1).getThrown(), "the same throw site within the minute: no trace");
            assertNull(lines.get(2).getThrown());
            assertTrue(lines.get(1).getMessage().endsWith("(stack trace: once a minute per throw site)"));
        } finally {
            http1.setLevel(before);
        }
    }
}
