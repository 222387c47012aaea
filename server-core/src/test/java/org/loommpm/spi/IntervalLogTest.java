package org.loommpm.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.System.Logger.Level;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One line per id per interval: the first as it is, then a count with the last of those counted. */
class IntervalLogTest {
    private static final long SECOND = 1_000_000_000L;
    private static final String FORMAT = "LM2001 connection {0} from {1}: request head not received";

    private final AtomicLong now = new AtomicLong(5 * SECOND);
    private final IntervalLog log = new IntervalLog(Duration.ofSeconds(10), now::get);
    private final Lines lines = new Lines(Level.INFO);

    private void timeout(long connection) {
        log.log(lines, Level.INFO, FORMAT, connection, "/10.0.0.1");
    }

    @Test
    void theFirstLineIsLoggedAndTheRestCountedUntilTheIntervalEnds() {
        timeout(1);
        timeout(2);
        timeout(3);
        assertEquals(List.of("LM2001 connection 1 from /10.0.0.1: request head not received"), lines.text);
        now.addAndGet(10 * SECOND - 1);
        log.flush();
        assertEquals(1, lines.text.size(), "the interval has not ended");
        now.addAndGet(1);
        log.flush();
        assertEquals("LM2001 2 more in 10 s; the last: connection 3 from /10.0.0.1: request head not received",
                lines.text.get(1));
    }

    @Test
    void aFloodIsOneLinePerInterval() {
        for (int i = 1; i <= 30; i++) {
            timeout(i);
            now.addAndGet(SECOND);
            log.flush();
        }
        assertEquals(List.of("LM2001 connection 1 from /10.0.0.1: request head not received",
                "LM2001 9 more in 10 s; the last: connection 10 from /10.0.0.1: request head not received",
                "LM2001 10 more in 10 s; the last: connection 20 from /10.0.0.1: request head not received",
                "LM2001 10 more in 10 s; the last: connection 30 from /10.0.0.1: request head not received"),
                lines.text);
    }

    @Test
    void aLineAfterAQuietIntervalIsLoggedAsItIs() {
        timeout(1);
        now.addAndGet(10 * SECOND);
        log.flush();
        timeout(2);
        assertEquals(List.of("LM2001 connection 1 from /10.0.0.1: request head not received",
                "LM2001 connection 2 from /10.0.0.1: request head not received"), lines.text);
    }

    @Test
    void aLineAfterTheEndWritesTheCountWithoutAFlush() {
        timeout(1);
        timeout(2);
        now.addAndGet(12 * SECOND);
        timeout(3);
        assertEquals(List.of("LM2001 connection 1 from /10.0.0.1: request head not received",
                "LM2001 1 more in 12 s; the last: connection 2 from /10.0.0.1: request head not received"),
                lines.text, "connection 3 is counted in the next interval");
        log.flushAll();
        assertEquals("LM2001 1 more in 1 s; the last: connection 3 from /10.0.0.1: request head not received",
                lines.text.get(2));
    }

    @Test
    void idsAreCountedApart() {
        timeout(1);
        log.log(lines, Level.INFO, "LM2002 connection {0} closed: nothing received", 7L);
        timeout(2);
        log.log(lines, Level.INFO, "LM2002 connection {0} closed: nothing received", 8L);
        assertEquals(List.of("LM2001 connection 1 from /10.0.0.1: request head not received",
                "LM2002 connection 7 closed: nothing received"), lines.text);
        log.flushAll();
        assertEquals(Set.of("LM2001 1 more in 1 s; the last: connection 2 from /10.0.0.1: request head not received",
                "LM2002 1 more in 1 s; the last: connection 8 closed: nothing received"),
                Set.copyOf(lines.text.subList(2, lines.text.size())));
    }

    @Test
    void aLevelTheLoggerDropsIsNeitherLoggedNorCounted() {
        Lines warnOnly = new Lines(Level.WARNING);
        log.log(warnOnly, Level.INFO, FORMAT, 1L, "/10.0.0.1");
        log.flushAll();
        timeout(2);
        assertEquals(List.of(), warnOnly.text);
        assertEquals(List.of("LM2001 connection 2 from /10.0.0.1: request head not received"), lines.text);
    }

    /** A logger that keeps its lines, formatted as the JDK's loggers format them. */
    private static final class Lines implements System.Logger {
        final List<String> text = new ArrayList<>();
        private final Level threshold;

        Lines(Level threshold) {
            this.threshold = threshold;
        }

        @Override
        public String getName() {
            return "test";
        }

        @Override
        public boolean isLoggable(Level level) {
            return level.getSeverity() >= threshold.getSeverity();
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            text.add(msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            text.add(params == null || params.length == 0 ? format : MessageFormat.format(format, params));
        }
    }
}
