package org.loommpm.cli.logging;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code LogLevel}: a default threshold plus per-module ones ({@code LogLevel info engine:debug}).
 * A module is matched against a logger's name: the whole name, or its last dot-separated part
 * ({@code engine} for {@code org.loommpm.engine}, {@code cli} for {@code org.loommpm.cli}).
 *
 * @param threshold the default level
 * @param modules per-module levels, by lowercase module name
 */
public record LogLevels(LogLevel threshold, Map<String, LogLevel> modules) {
    /** loom-mpm's default: {@code info} (httpd: warn), so the engine's start, restart and stop lines show. */
    public static final LogLevels DEFAULT = new LogLevels(LogLevel.INFO, Map.of());

    /** The level in force for a logger name. */
    public LogLevel levelFor(String loggerName) {
        if (modules.isEmpty()) {
            return threshold;
        }
        LogLevel l = modules.get(loggerName.toLowerCase(java.util.Locale.ROOT));
        if (l == null) {
            l = modules.get(module(loggerName));
        }
        return l != null ? l : threshold;
    }

    /** The module part of a logger name, lowercase: its last dot-separated part. */
    public static String module(String loggerName) {
        return loggerName.substring(loggerName.lastIndexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Parses {@code LogLevel} arguments on top of {@code base}: a bare level sets the default,
     * {@code module:level} one module.
     *
     * @throws IllegalArgumentException naming the bad argument
     */
    public static LogLevels parse(LogLevels base, Iterable<String> args) {
        LogLevel threshold = base.threshold();
        Map<String, LogLevel> modules = new LinkedHashMap<>(base.modules());
        for (String a : args) {
            int colon = a.indexOf(':');
            String name = colon < 0 ? a : a.substring(colon + 1);
            LogLevel l = LogLevel.parse(name);
            if (l == null) {
                throw new IllegalArgumentException("LogLevel requires level keyword: one of emerg, alert, crit, "
                        + "error, warn, notice, info, debug, trace1 ... trace8; got '" + name + "'");
            }
            if (colon < 0) {
                threshold = l;
            } else if (colon == 0) {
                throw new IllegalArgumentException("LogLevel: empty module name in '" + a + "'");
            } else {
                modules.put(a.substring(0, colon).toLowerCase(java.util.Locale.ROOT), l);
            }
        }
        return new LogLevels(threshold, Map.copyOf(modules));
    }
}
