package org.loommpm.cli.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * The error log: every {@link System.Logger} and {@code java.util.logging} message of the
 * process ends here, filtered by {@code LogLevel} (per module), formatted like httpd's
 * ({@code [Sun Nov 22 16:46:10.123 2026] [engine:info] [pid 42] LM0001 ...}) and handed to a
 * background {@link AsyncLogWriter}. Until {@link #configure} is called (while the configuration
 * is read) lines go straight to stderr, at the default level.
 */
public final class ErrorLog {
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    /** The levels and destination in force; swapped whole on reconfiguration. */
    private record State(LogLevels levels, AsyncLogWriter writer) {
    }

    private static volatile State state = new State(LogLevels.DEFAULT, null);

    private ErrorLog() {
    }

    /**
     * Sets the levels and the destination (its owner, {@link LogTargets}, closes it).
     *
     * @param writer the destination, or null for synchronous stderr
     */
    public static void configure(LogLevels levels, AsyncLogWriter writer) {
        state = new State(levels, writer);
    }

    /** Keeps the levels, but writes straight to stderr from now on (the writers are closing). */
    public static void useStderr() {
        state = new State(state.levels(), null);
    }

    /**
     * Waits (up to {@code millis}) until every line logged before is written: the last thing
     * before the process ends without its usual close (a fatal error's halt).
     */
    public static void flush(long millis) {
        AsyncLogWriter w = state.writer();
        if (w != null) {
            w.flush(millis);
        }
    }

    /** Whether a message of {@code level} from {@code logger} would be written. */
    public static boolean isLoggable(String logger, LogLevel level) {
        return level.ordinal() <= state.levels().levelFor(logger).ordinal();
    }

    /**
     * Writes a message if its level passes, counted under its id ({@link LogIdCounts#PROCESS});
     * {@code thrown} adds its stack trace.
     */
    public static void log(String logger, LogLevel level, String message, Throwable thrown) {
        State s = state;
        if (level.ordinal() > s.levels().levelFor(logger).ordinal()) {
            return;
        }
        LogIdCounts.PROCESS.count(message);
        StringBuilder sb = new StringBuilder(128);
        timestamp(sb, System.currentTimeMillis());
        sb.append(" [").append(LogLevels.module(logger)).append(':').append(level.label()).append("] [pid ")
                .append(Pid.TEXT).append("] ").append(message);
        if (thrown != null) {
            StringWriter w = new StringWriter();
            thrown.printStackTrace(new PrintWriter(w));
            sb.append('\n').append(w.toString().stripTrailing());
        }
        String line = sb.toString();
        if (s.writer() == null) {
            System.err.println(line);
        } else {
            s.writer().offer(line);
        }
    }

    /** Appends {@code [Sun Nov 22 16:46:10.123 2026]}: {@code millis} in the default time zone. */
    static void timestamp(StringBuilder sb, long millis) {
        // The offset from java.util.TimeZone, not java.time's ZoneId: both read the same tz
        // database, but the first use of java.time's zone-rules provider reads it a second time
        // (~30 ms before the JIT has started, which the first log line paid).
        long localSecond = Math.floorDiv(millis + TimeZone.getDefault().getOffset(millis), 1000);
        LocalDateTime t = LocalDateTime.ofEpochSecond(localSecond, 0, ZoneOffset.UTC);
        // The weekday from the day number (1970-01-01 was a Thursday), not getDayOfWeek(): that
        // initializes java.time.Year, whose date parser costs the first log line ~80 classes.
        int day = (int) Math.floorMod(Math.floorDiv(localSecond, 86_400) + 3, 7);
        sb.append('[').append(DAYS[day]).append(' ')
                .append(MONTHS[t.getMonthValue() - 1]).append(' ');
        ClfTime.pad(sb, t.getDayOfMonth()).append(' ');
        ClfTime.pad(sb, t.getHour()).append(':');
        ClfTime.pad(sb, t.getMinute()).append(':');
        ClfTime.pad(sb, t.getSecond()).append('.');
        int ms = Math.floorMod(millis, 1000);
        sb.append(ms < 100 ? (ms < 10 ? "00" : "0") : "").append(ms).append(' ').append(t.getYear()).append(']');
    }
}
