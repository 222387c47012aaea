package org.loommpm.spi;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Lines that come one per connection and, under attack, by the thousand (a timeout each: 5,000
 * slowloris connections logged 5,003 lines), aggregated per log id into one line per interval.
 * The first line of an id that was quiet is logged as it is; those that follow within the
 * interval are only counted, and when the interval ends one line gives their count and the last
 * of them. If any were counted a new interval starts then, so a flood costs one line per
 * interval; an id quiet for a whole interval logs its next line as it is again.
 *
 * <p>A line's id is its first word (its LM id). Any thread logs. {@link #flush} (the engine's
 * supervisor, once a second) writes the counts of intervals that have ended, so a count does not
 * wait for the next line to come; {@link #flushAll} writes every count (at stop).
 */
public final class IntervalLog {
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * A log on the system's clock.
     *
     * @param interval how long the lines after an id's first are only counted
     */
    public IntervalLog(Duration interval) {
        this(interval, new NanoTime());
    }

    /**
     * A log on a given clock (tests).
     *
     * @param interval how long the lines after an id's first are only counted
     * @param nanoClock the time in nanoseconds
     */
    public IntervalLog(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Logs {@code format} (which starts with its id) as {@code logger.log} would, or counts it.
     *
     * @param logger where the line goes
     * @param level its level
     * @param format the line, its id first, with {@code {0}}-style parameters
     * @param params the parameters
     */
    public void log(System.Logger logger, Level level, String format, Object... params) {
        if (!logger.isLoggable(level)) {
            return;
        }
        int space = format.indexOf(' ');
        String id = space < 0 ? format : format.substring(0, space);
        Window w = windows.computeIfAbsent(id, Window::new);
        long now = nanoClock.getAsLong();
        Summary ended;
        boolean whole;
        synchronized (w) {
            ended = w.endIfDue(now, intervalNanos);
            whole = !w.open;
            if (whole) {
                w.open = true;
                w.start = now;
            } else {
                w.count++;
                w.logger = logger;
                w.level = level;
                w.format = format;
                w.params = params;
            }
        }
        if (ended != null) {
            ended.write();
        }
        if (whole) {
            logger.log(level, format, params);
        }
    }

    /** Writes the count of every interval that has ended. */
    public void flush() {
        long now = nanoClock.getAsLong();
        for (Summary s : summaries(now, false)) {
            s.write();
        }
    }

    /** Writes every count, ended or not, and ends every interval. */
    public void flushAll() {
        for (Summary s : summaries(nanoClock.getAsLong(), true)) {
            s.write();
        }
    }

    private List<Summary> summaries(long now, boolean all) {
        List<Summary> out = new ArrayList<>();
        for (Window w : windows.values()) {
            Summary s;
            synchronized (w) {
                s = all ? w.end(now) : w.endIfDue(now, intervalNanos);
            }
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * {@link System#nanoTime}. A class rather than a method reference: the engine makes its log
     * at start, and a lambda would be a class spun then, which no start-up class list can load
     * ahead.
     */
    private static final class NanoTime implements LongSupplier {
        @Override
        public long getAsLong() {
            return System.nanoTime();
        }
    }

    /** One id's interval. Guarded by itself. */
    private static final class Window {
        final String id;
        boolean open;
        long start;
        /** Lines counted, not logged, since {@link #start}. */
        long count;
        /** The last of them. */
        System.Logger logger;
        Level level;
        String format;
        Object[] params;

        Window(String id) {
            this.id = id;
        }

        /** Ends the interval if it is over: its count, and a new interval if there was one. */
        Summary endIfDue(long now, long intervalNanos) {
            if (!open || now - start < intervalNanos) {
                return null;
            }
            Summary s = end(now);
            open = s != null; // a flood goes on being counted; a quiet id logs its next line whole
            return s;
        }

        /** The count since {@link #start} (null when none), starting over from {@code now}. */
        Summary end(long now) {
            Summary s = count == 0 ? null : new Summary(this, count, now - start);
            open = false;
            start = now;
            count = 0;
            params = null;
            return s;
        }
    }

    /** An interval's count, written outside the window's lock. */
    private record Summary(System.Logger logger, Level level, String text, Object[] params) {
        Summary(Window w, long count, long elapsedNanos) {
            // The last line's own text after the id (MessageFormat placeholders kept): a count
            // with an example of what was counted.
            this(w.logger, w.level, w.id + " " + count + " more in " + Math.max(1, Math.round(elapsedNanos / 1e9))
                    + " s; the last:" + w.format.substring(w.id.length()), w.params);
        }

        void write() {
            logger.log(level, text, params);
        }
    }
}
