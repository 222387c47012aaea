package org.loommpm.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The message deadline runs from the first fragment, is not moved by later ones, and stops between messages. */
class MessageDeadlineTest {
    private static final long S = 1_000_000_000L;

    @Test
    void laterFragmentsDoNotMoveIt() {
        MessageDeadline d = new MessageDeadline(Duration.ofSeconds(30));
        long t0 = 1_000 * S;
        d.observe(false, t0);
        assertFalse(d.passed(t0 + 60 * S), "no message, no deadline");
        assertEquals(t0 + 5 * S, d.earlier(t0 + 5 * S));
        d.observe(true, t0);
        for (int i = 1; i < 30; i++) {
            d.observe(true, t0 + i * S); // a fragment each second
            assertFalse(d.passed(t0 + i * S));
        }
        assertTrue(d.passed(t0 + 30 * S), "30 s after the first fragment, whatever came since");
        assertEquals(t0 + 30 * S, d.earlier(t0 + 300 * S), "it wakes the socket before the idle timeout");
    }

    @Test
    void aFinishedMessageStopsItAndTheNextStartsAnew() {
        MessageDeadline d = new MessageDeadline(Duration.ofSeconds(30));
        d.observe(true, 0);
        d.observe(false, 20 * S);
        assertFalse(d.passed(40 * S));
        d.observe(true, 40 * S);
        assertFalse(d.passed(60 * S));
        assertTrue(d.passed(70 * S));
    }
}
