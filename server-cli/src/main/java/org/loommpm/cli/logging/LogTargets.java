package org.loommpm.cli.logging;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The open log files, by destination, shared by the error log and every {@code CustomLog}: two
 * logs naming one file share one writer, so their lines never tear each other. A graceful restart
 * {@link #apply applies} the new configuration: destinations still used are reopened in order
 * with their lines (log rotation), new ones opened, and the ones no longer named are closed once
 * the old generation is given time to finish.
 */
public final class LogTargets implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli.logging");

    private final Map<String, AsyncLogWriter> open = new HashMap<>();

    /**
     * Opens what {@code logs} names and points the error log at its destination; returns the
     * access-log sinks to build the filter from (none for a {@code CustomLog} to
     * {@code /dev/null}, which is dropped here rather than formatted and written).
     *
     * @param reopen whether destinations already open are reopened (a restart), or kept as they are
     * @param retired receives writers no longer named, for the caller to close later
     * @throws IOException if a destination cannot be opened; nothing changes then
     */
    public List<AccessLogFilter.Sink> apply(LogSettings logs, boolean reopen, List<AsyncLogWriter> retired)
            throws IOException {
        Set<String> wanted = new HashSet<>();
        wanted.add(logs.errorLog());
        for (LogSettings.AccessLogSpec a : logs.accessLogs()) {
            if (!a.discarded()) {
                wanted.add(a.target());
            }
        }
        Map<String, AsyncLogWriter> fresh = new HashMap<>();
        try {
            for (String t : wanted) {
                if (!open.containsKey(t)) {
                    fresh.put(t, new AsyncLogWriter(t, AsyncLogWriter.DEFAULT_CAPACITY, DROPS));
                }
            }
        } catch (IOException e) {
            fresh.values().forEach(AsyncLogWriter::close);
            throw e;
        }
        if (reopen) {
            for (Map.Entry<String, AsyncLogWriter> e : open.entrySet()) {
                if (wanted.contains(e.getKey())) {
                    e.getValue().reopen();
                }
            }
        }
        open.putAll(fresh);
        for (String t : new ArrayList<>(open.keySet())) {
            if (!wanted.contains(t)) {
                retired.add(open.remove(t));
            }
        }
        ErrorLog.configure(logs.levels(), open.get(logs.errorLog()));
        List<AccessLogFilter.Sink> sinks = new ArrayList<>();
        for (LogSettings.AccessLogSpec a : logs.accessLogs()) {
            if (a.discarded()) {
                continue; // formatting lines for /dev/null cost ~8 % of a small file's req/s
            }
            sinks.add(new AccessLogFilter.Sink(AccessLogFormat.compile(a.format()), open.get(a.target())));
        }
        return sinks;
    }

    /** Where writers report dropped lines: the error log (a class, not a lambda: built at start-up). */
    private static final java.util.function.Consumer<String> DROPS = new java.util.function.Consumer<>() {
        @Override
        public void accept(String message) {
            LOG.log(Level.WARNING, message);
        }
    };

    /**
     * Takes back writers {@link #apply} retired, when the restart they were retired for failed
     * and the old generation still writes to them: they are flushed and closed with the rest.
     */
    public void restore(List<AsyncLogWriter> writers) {
        for (AsyncLogWriter w : writers) {
            open.putIfAbsent(w.target(), w);
        }
    }

    /** Flushes and closes everything; the error log falls back to stderr. */
    @Override
    public void close() {
        ErrorLog.useStderr();
        for (AsyncLogWriter w : open.values()) {
            w.close();
        }
        open.clear();
    }
}
