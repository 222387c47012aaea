package org.loommpm.cli.logging;

import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Sends {@code java.util.logging} records (from libraries that use it) to the {@link ErrorLog}.
 * Installed lazily: {@code Main} names this class in {@code java.util.logging.config.class}, so
 * the JDK instantiates it only if something ever touches JUL, and start-up pays nothing otherwise.
 */
public final class JulBridge {
    /** Called by {@link LogManager} when JUL initializes: replaces the root handlers with ours. */
    public JulBridge() {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(java.util.logging.Level.ALL);
        root.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                String name = r.getLoggerName() != null ? r.getLoggerName() : "jul";
                LogLevel level = LogLevel.ofJul(r.getLevel().intValue());
                if (ErrorLog.isLoggable(name, level)) {
                    String msg = r.getMessage();
                    Object[] params = r.getParameters();
                    if (msg != null && params != null && params.length > 0) {
                        msg = java.text.MessageFormat.format(msg, params);
                    }
                    ErrorLog.log(name, level, String.valueOf(msg), r.getThrown());
                }
            }

            @Override
            public void flush() {
                // The error log's writer flushes on its own and on shutdown.
            }

            @Override
            public void close() {
                // Nothing is owned here.
            }
        });
    }
}
