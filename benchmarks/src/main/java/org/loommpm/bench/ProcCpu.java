package org.loommpm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time (user + system, all threads, including those that have ended) from
 * {@code /proc/PID/stat}. Resolution is one clock tick: USER_HZ, which Linux fixes at 100 on
 * x86, so 10 ms; a run of several seconds makes that negligible.
 */
final class ProcCpu {
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcCpu() {
    }

    /** CPU nanoseconds used by {@code pid} so far; -1 when {@code pid <= 0} or unreadable. */
    static long nanos(int pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            // Fields after the parenthesised command name, which may itself contain spaces.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // f[0] is field 3 (state); utime and stime are fields 14 and 15.
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
