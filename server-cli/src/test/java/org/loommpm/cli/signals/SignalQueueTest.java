package org.loommpm.cli.signals;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * Whether {@code SIGWINCH} is handled: Surefire's forked JVM has pipes for its standard streams,
 * so it is not on a terminal and {@code WINCH} would be a graceful stop. (What USR1 and WINCH do
 * to the running jar is {@code OperatorIT}'s: installing the queue here would take TERM and INT
 * away from the test JVM.)
 */
class SignalQueueTest {
    @Test
    void pipesAreNotATerminal() {
        assertFalse(SignalQueue.onTerminal(), "surefire's streams are pipes");
    }
}
