package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.loommpm.server.FatalServerException;

/** The jar's exit statuses after a fatal error: one per kind, none of the jar's other statuses. */
class FatalExitTest {
    @Test
    void eachKindHasAStatusOfItsOwn() {
        assertEquals(3, FatalExit.status(FatalServerException.Kind.OUT_OF_MEMORY), "what -XX:+ExitOnOutOfMemoryError exits with");
        assertEquals(4, FatalExit.status(FatalServerException.Kind.POLLER_DIED));
        assertEquals(5, FatalExit.status(FatalServerException.Kind.SUPERVISOR_DIED));
        Set<Integer> statuses = new HashSet<>(Set.of(0, 1, 2)); // stopped, could not start, bad command line
        for (FatalServerException.Kind k : FatalServerException.Kind.values()) {
            assertEquals(true, statuses.add(FatalExit.status(k)), k + " has a status of its own");
        }
    }
}
