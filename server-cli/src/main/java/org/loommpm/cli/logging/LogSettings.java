package org.loommpm.cli.logging;

import java.util.List;

/**
 * Where logs go.
 *
 * @param errorLog the {@code ErrorLog} target: a path, {@code /dev/stderr} or {@code /dev/stdout}
 * @param levels {@code LogLevel}
 * @param accessLogs every {@code CustomLog}; when the configuration names none, one to stdout in
 *     common format
 */
public record LogSettings(String errorLog, LogLevels levels, List<AccessLogSpec> accessLogs) {
    /**
     * One {@code CustomLog}.
     *
     * @param target a path, {@code /dev/stdout} or {@code /dev/stderr}
     * @param format the format string (nicknames already resolved)
     */
    public record AccessLogSpec(String target, String format) {
        /** Where a log goes that nobody keeps. */
        public static final String DISCARD = "/dev/null";

        /**
         * Whether this log goes to {@value #DISCARD}: the way to turn the access log off (naming
         * it replaces the default log to stdout). Such a log is never formatted or written.
         */
        public boolean discarded() {
            return target.equals(DISCARD);
        }
    }
}
