package org.loommpm.cli.config;

/**
 * {@code ChildProcesses On|Off} (default Off): whether the jar runs each child as its own JVM
 * (see {@code cli.children.ProcessSupervisor}) instead of as in-JVM shards of one process.
 */
public final class ChildDirectives {
    /** The key of this module's state in {@link LoomConfig#extensions()}. */
    static final String KEY = "children";
    /** {@code ChildProcesses}'s default. */
    public static final boolean DEFAULT_CHILD_PROCESSES = false;

    /** This module's parse state. */
    static final class Settings {
        boolean processes = DEFAULT_CHILD_PROCESSES;
    }

    private ChildDirectives() {
    }

    /**
     * The directive's action: an enum like the other directive modules', not a lambda, which
     * would cost every start a spun class while the table is built.
     */
    private enum D implements DirectiveTable.Action {
        CHILD_PROCESSES;

        @Override
        public void apply(ParseState state, ConfigLine line) throws ConfigException {
            state.extension(KEY, Settings::new).processes = Args.onOff(line);
        }
    }

    /** Adds {@code ChildProcesses} to {@code table}. */
    public static void register(DirectiveTable table) {
        table.register("ChildProcesses", 1, 1, DirectiveTable.SERVER, "On|Off", D.CHILD_PROCESSES);
    }

    /** Whether {@code config} asks for child processes. */
    public static boolean enabled(LoomConfig config) {
        return config.extensions().get(KEY) instanceof Settings s ? s.processes : DEFAULT_CHILD_PROCESSES;
    }
}
