package org.loommpm.cli.logging;

import java.lang.System.Logger.Level;
import java.util.Locale;

/**
 * httpd's log levels, most severe first. A message is written when its level is at or above the
 * configured one ({@code ordinal() <= threshold.ordinal()}).
 */
public enum LogLevel {
    EMERG, ALERT, CRIT, ERROR, WARN, NOTICE, INFO, DEBUG,
    TRACE1, TRACE2, TRACE3, TRACE4, TRACE5, TRACE6, TRACE7, TRACE8;

    /** The name as written in the configuration and the log ({@code warn}, {@code trace3}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a level name, case-insensitive; null when it is none. */
    public static LogLevel parse(String s) {
        for (LogLevel l : values()) {
            if (l.name().equalsIgnoreCase(s)) {
                return l;
            }
        }
        return null;
    }

    /** The httpd level a {@link System.Logger} level is written at. */
    public static LogLevel of(Level level) {
        return switch (level) {
            case ERROR -> ERROR;
            case WARNING -> WARN;
            case INFO -> INFO;
            case DEBUG -> DEBUG;
            case TRACE, ALL -> TRACE1;
            case OFF -> EMERG;
        };
    }

    /** The httpd level a {@code java.util.logging} level value is written at. */
    public static LogLevel ofJul(int value) {
        if (value >= 1000) {
            return ERROR;   // SEVERE
        } else if (value >= 900) {
            return WARN;    // WARNING
        } else if (value >= 800) {
            return INFO;    // INFO
        } else if (value >= 500) {
            return DEBUG;   // CONFIG, FINE
        } else if (value >= 400) {
            return TRACE1;  // FINER
        }
        return TRACE2;      // FINEST and below
    }
}
