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
                String msg = params == null || params.length == 0 ? format : MessageFormat.format(format, params);
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
