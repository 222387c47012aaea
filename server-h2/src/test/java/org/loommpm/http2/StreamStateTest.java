package org.loommpm.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.loommpm.http2.StreamState.Event;

/** The stream state machine of RFC 9113 §5.1 (without the reserved states). */
class StreamStateTest {
    @Test
    void requestThenResponse() {
        StreamState s = StreamState.IDLE.on(Event.RECV_HEADERS);
        assertEquals(StreamState.OPEN, s);
        s = s.on(Event.RECV_END_STREAM);
        assertEquals(StreamState.HALF_CLOSED_REMOTE, s);
        assertEquals(StreamState.CLOSED, s.on(Event.SEND_END_STREAM));
    }

    @Test
    void responseBeforeTheRequestEnds() {
        StreamState s = StreamState.OPEN.on(Event.SEND_END_STREAM);
        assertEquals(StreamState.HALF_CLOSED_LOCAL, s);
        assertEquals(StreamState.CLOSED, s.on(Event.RECV_END_STREAM));
    }

    @Test
    void resetClosesFromAnyState() {
        for (StreamState s : StreamState.values()) {
            assertEquals(StreamState.CLOSED, s.on(Event.RESET));
        }
    }

    @Test
    void impossibleEventsAreBugs() {
        assertThrows(IllegalStateException.class, () -> StreamState.HALF_CLOSED_REMOTE.on(Event.RECV_END_STREAM));
        assertThrows(IllegalStateException.class, () -> StreamState.CLOSED.on(Event.SEND_END_STREAM));
        assertThrows(IllegalStateException.class, () -> StreamState.OPEN.on(Event.RECV_HEADERS));
    }
}
