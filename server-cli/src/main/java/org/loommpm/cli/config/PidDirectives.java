package org.loommpm.cli.config;

import java.nio.file.Path;

/**
 * {@code PidFile path} (default: none): the file the running server writes its process id to,
 * as httpd's {@code PidFile}, resolved against {@code ServerRoot}; {@code -k} finds the server
 * through it. See {@code cli.signals.PidFile} for its life.
 */
public final class PidDirectives {
    /** The key of this module's state in {@link LoomConfig#extensions()}. */
    static final String KEY = "pidfile";

    /** This module's parse state. */
    static final class Settings {
        Path file;
    }

    private PidDirectives() {
    }

    /** The directive's action (an enum, as the other directive modules': no lambda at start-up). */
    private enum D implements DirectiveTable.Action {
        PID_FILE;

        @Override
        public void apply(ParseState state, ConfigLine line) throws ConfigException {
            String arg = line.args().get(0);
            if (arg.isBlank()) {
                throw line.error("PidFile: empty path");
            }
            state.extension(KEY, Settings::new).file = state.resolve(arg);
        }
    }

    /** Adds {@code PidFile} to {@code table}. */
    public static void register(DirectiveTable table) {
        table.register("PidFile", 1, 1, DirectiveTable.SERVER, "file", D.PID_FILE);
    }

    /** The pid file {@code config} names, or null when it names none (the default). */
    public static Path file(LoomConfig config) {
        return config.extensions().get(KEY) instanceof Settings s ? s.file : null;
    }
}
