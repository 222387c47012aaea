package org.loommpm.cli.logging;

import java.text.MessageFormat;
import java.util.ResourceBundle;
import java.util.function.Supplier;

/**
 * Routes {@link System.Logger} (which the engine logs through) to the {@link ErrorLog}, found by
 * the JDK through {@code META-INF/services/java.lang.System$LoggerFinder}. Besides honouring
 * {@code LogLevel}, this keeps {@code java.util.logging} from loading at start-up at all.
 */
public final class LoomLoggerFinder extends System.LoggerFinder {
    /** Called by the JDK's service loader. */
    public LoomLoggerFinder() {
    }

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new Bridge(name);
    }

    /**
     * Fills {@code {0}}-style placeholders with {@code String.valueOf}: the engine's messages use
     * only those, and {@link MessageFormat} (its number formats, locale data) costs start-up tens
     * of milliseconds. A format with typed placeholders ({@code {0,number}}) still goes to it.
     */
    static String format(String format, Object[] params) {
        StringBuilder sb = new StringBuilder(format.length() + 32);
        int i = 0;
        int n = format.length();
        while (i < n) {
            char c = format.charAt(i);
            if (c == '\'') {
                return MessageFormat.format(format, params); // quoting rules: leave them to MessageFormat
            }
            if (c == '{') {
                int close = format.indexOf('}', i);
                int index = close < 0 ? -1 : index(format, i + 1, close);
                if (index < 0) {
                    return MessageFormat.format(format, params);
                }
                sb.append(index < params.length ? String.valueOf(params[index]) : format.substring(i, close + 1));
                i = close + 1;
                continue;
            }
            sb.append(c);
            i++;
        }
        return sb.toString();
    }

    private static int index(String s, int from, int to) {
        if (from == to || to - from > 2) {
            return -1;
        }
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** One named logger; keeps no state beyond its name, so levels change with the configuration. */
    private record Bridge(String name) implements System.Logger {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            return level != Level.OFF && ErrorLog.isLoggable(name, LogLevel.of(level));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            if (isLoggable(level)) {
                ErrorLog.log(name, LogLevel.of(level), String.valueOf(msg), thrown);
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            if (isLoggable(level)) {
                String msg = params == null || params.length == 0 ? format : format(format, params);
                Throwable t = params != null && params.length > 0 && params[params.length - 1] instanceof Throwable th
                        ? th : null;
                ErrorLog.log(name, LogLevel.of(level), msg, t);
            }
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
            if (isLoggable(level)) {
                ErrorLog.log(name, LogLevel.of(level), msgSupplier.get(), null);
            }
        }
    }
}
