package org.loommpm.cli.children;

import org.loommpm.cli.config.Args;
import org.loommpm.cli.config.DirectiveTable;
import org.loommpm.cli.config.LoomConfig;

/**
 * {@code ChildProcesses On|Off} (default Off): whether the jar runs each child as its own JVM
 * (see {@link ProcessSupervisor}) instead of as in-JVM shards of one process.
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

    /** Adds {@code ChildProcesses} to {@code table}. */
    public static void register(DirectiveTable table) {
        table.register("ChildProcesses", 1, 1, DirectiveTable.SERVER, "On|Off",
                (state, line) -> state.extension(KEY, Settings::new).processes = Args.onOff(line));
    }

    /** Whether {@code config} asks for child processes. */
    public static boolean enabled(LoomConfig config) {
        return config.extensions().get(KEY) instanceof Settings s ? s.processes : DEFAULT_CHILD_PROCESSES;
    }
}
