package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A throw site's stack trace once per window; the site is the exception's class and top frame. */
class StackTraceLimiterTest {
    private static final long MINUTE = Duration.ofMinutes(1).toNanos();

    private final AtomicLong now = new AtomicLong(1_000);
    private final StackTraceLimiter limiter = new StackTraceLimiter(Duration.ofMinutes(1), now::get);

    private static RuntimeException thrownAt(String className, int line) {
        RuntimeException e = new IllegalStateException("boom");
        e.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, "handle", "X.java", line)});
        return e;
    }

    @Test
    void aSiteIsTracedOncePerWindow() {
        RuntimeException first = thrownAt("app.Handler", 10);
        RuntimeException again = thrownAt("app.Handler", 10);
        assertSame(first, limiter.traceOrNull(first, false));
        assertNull(limiter.traceOrNull(again, false));
        now.addAndGet(MINUTE - 1);
        assertNull(limiter.traceOrNull(again, false), "still within the minute");
        now.addAndGet(1);
        assertSame(again, limiter.traceOrNull(again, false), "a minute later");
        assertNull(limiter.traceOrNull(first, false), "the window starts again from that trace");
    }

    @Test
    void anotherFrameOrClassIsAnotherSite() {
        limiter.traceOrNull(thrownAt("app.Handler", 10), false);
        RuntimeException otherLine = thrownAt("app.Handler", 11);
        assertSame(otherLine, limiter.traceOrNull(otherLine, false));
        RuntimeException otherClass = new IllegalArgumentException("boom");
        otherClass.setStackTrace(thrownAt("app.Handler", 10).getStackTrace());
        assertSame(otherClass, limiter.traceOrNull(otherClass, false));
    }

    @Test
    void anExceptionWithoutATraceIsKeyedByItsClass() {
        RuntimeException a = new IllegalStateException("a");
        a.setStackTrace(new StackTraceElement[0]);
        RuntimeException b = new IllegalStateException("b");
        b.setStackTrace(new StackTraceElement[0]);
        assertSame(a, limiter.traceOrNull(a, false));
        assertNull(limiter.traceOrNull(b, false));
    }

    @Test
    void alwaysTracesEveryTime() {
        RuntimeException e = thrownAt("app.Handler", 10);
        assertSame(e, limiter.traceOrNull(e, false));
        assertSame(e, limiter.traceOrNull(e, true));
        assertSame(e, limiter.traceOrNull(e, true));
    }

    @Test
    void sitesAreBoundedAndExpiredOnesMakeRoom() {
        for (int i = 0; i < StackTraceLimiter.MAX_SITES; i++) {
            limiter.traceOrNull(thrownAt("gen.Class" + i, 1), false);
        }
        RuntimeException late = thrownAt("gen.Late", 1);
        assertNull(limiter.traceOrNull(late, false), "no room for a new site");
        now.addAndGet(MINUTE);
        assertSame(late, limiter.traceOrNull(late, false), "the expired sites were dropped");
    }
}
