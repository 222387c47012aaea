package org.loommpm.cli.logging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's id, for log lines. */
final class Pid {
    /** The id as text. */
    static final String TEXT = find();

    private Pid() {
    }

    /**
     * On Linux {@code /proc/self} names it for the price of one readlink; {@link ProcessHandle}
     * costs start-up about 10 ms, so it is only the fallback.
     */
    private static String find() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self")).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return Long.toString(ProcessHandle.current().pid());
        }
    }
}
