package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;

/**
 * {@code SetHandler server-status} and {@code health} are served by the poller that read the
 * request (non-blocking, no worker slot), so they answer while every slot is busy; the access
 * rules still apply to them. Counted through the pollers' inline requests.
 */
class PagesOnPollerTest {
    @TempDir
    Path dir;

    private static long inline(EngineStats stats) {
        return stats.children().stream().flatMap(c -> c.pollerStats().stream())
                .mapToLong(PollerStats::inlineRequests).sum();
    }

    @Test
    void statusAndHealthAreServedOnThePoller() throws Exception {
        try (SiteServer s = SiteServer.start(dir, """
                <Location /server-status>
                    SetHandler server-status
                </Location>
                <Location /health>
                    SetHandler health
                </Location>
                <Location /private-status>
                    SetHandler server-status
                    Require ip 192.0.2.1
                </Location>
                """)) {
            long before = inline(s.stats());
            assertEquals(200, s.get("/server-status?auto").statusCode());
            assertEquals(200, s.get("/health/ready").statusCode());
            assertEquals(200, s.get("/health/live").statusCode());
            assertEquals(403, s.get("/private-status?auto").statusCode(), "Require applies on the poller too");
            // The poller counts a request once it has handed its answer over: the client may read
            // the answer first.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (inline(s.stats()) < before + 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(before + 4, inline(s.stats()), "all four answered by the poller");
            assertTrue(s.get("/nothing-here").statusCode() == 404);
            assertEquals(before + 4, inline(s.stats()), "a file lookup goes to a worker");
        }
    }
}
