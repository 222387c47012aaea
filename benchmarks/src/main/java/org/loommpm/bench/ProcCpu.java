package org.loommpm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

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
            return ticks(Path.of("/proc", Integer.toString(pid), "stat")) * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU nanoseconds used so far by the JIT compiler threads of JVM {@code pid} ({@code C1/C2
     * CompilerThread*}): the part of {@link #nanos} spent compiling, 0 for a process without them,
     * -1 when {@code pid <= 0} or unreadable. A lower bound: a compiler thread the JVM has retired
     * takes its time out of the per-thread counts.
     */
    static long jitNanos(int pid) {
        if (pid <= 0) {
            return -1;
        }
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Integer.toString(pid), "task"))) {
            long ticks = 0;
            for (Path t : tasks.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm"));
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        ticks += ticks(t.resolve("stat"));
                    }
                } catch (IOException e) {
                    // the thread ended between the listing and the read: its time left the counts
                }
            }
            return ticks * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime, in clock ticks, of a {@code stat} file (a process's or a thread's). */
    private static long ticks(Path stat) throws IOException {
        String text = Files.readString(stat);
        // Fields after the parenthesised command name, which may itself contain spaces.
        String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
        // f[0] is field 3 (state); utime and stime are fields 14 and 15.
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
