package org.loommpm.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import com.sun.management.VMOption;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;

/**
 * The heap the jar runs with, said once at start (LM2603, INFO): its maximum, whether the JVM's
 * options set it or the JVM sized it from the machine, and whether an out-of-memory error ends
 * the JVM at once ({@code -XX:+ExitOnOutOfMemoryError}). A heap the JVM sized itself below
 * {@value #FLOOR_MIB} MiB (a small machine or container: a quarter of 512 MiB is 128 MiB) is
 * warned about (LM2604): a 128 MiB heap ran out of memory under the attack campaign's HTTP/1.1
 * attacks. One set explicitly is the operator's choice and only reported. See
 * docs/operations.md, "Heap size".
 */
final class HeapSize {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");
    /** Below this a heap the JVM chose is warned about. */
    static final long FLOOR_MIB = 256;
    private static final long MIB = 1 << 20;

    /**
     * @param maxBytes the most the heap may grow to
     * @param explicit whether the JVM's options set it (-Xmx, MaxRAMPercentage, ...), not the JVM's sizing
     * @param machineBytes the memory the JVM sees (a container's limit inside one)
     * @param exitOnOutOfMemory whether the options say what an out-of-memory error does to the JVM
     */
    record Heap(long maxBytes, boolean explicit, long machineBytes, boolean exitOnOutOfMemory) {
        /** The start line's text after its id. */
        String describe() {
            return "max heap " + maxBytes / MIB + " MiB ("
                    + (explicit ? "set by the JVM's options" : "the JVM's default for the machine's " + machineBytes / MIB
                            + " MiB; -Xms and -Xmx recommended")
                    + "), " + (exitOnOutOfMemory ? "the JVM's options set what out of memory does"
                            : "-XX:+ExitOnOutOfMemoryError not set (recommended)");
        }

        /** Whether the JVM chose a heap below {@value #FLOOR_MIB} MiB. */
        boolean tooSmallByDefault() {
            return !explicit && maxBytes < FLOOR_MIB * MIB;
        }
    }

    private HeapSize() {
    }

    /** This JVM's heap. */
    static Heap ofThisJvm() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean explicit = false;
        for (String sizing : new String[] {"MaxHeapSize", "MaxRAMPercentage", "MaxRAM", "MinRAMPercentage"}) {
            explicit |= set(vm.getVMOption(sizing));
        }
        long max = Long.parseLong(vm.getVMOption("MaxHeapSize").getValue());
        boolean exits = Boolean.parseBoolean(vm.getVMOption("ExitOnOutOfMemoryError").getValue())
                || Boolean.parseBoolean(vm.getVMOption("CrashOnOutOfMemoryError").getValue())
                || !vm.getVMOption("OnOutOfMemoryError").getValue().isEmpty();
        long machine = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        return new Heap(max, explicit, machine, exits);
    }

    /** Whether an option came from the command line, the environment or a file, not the JVM. */
    private static boolean set(VMOption o) {
        return o.getOrigin() != VMOption.Origin.DEFAULT && o.getOrigin() != VMOption.Origin.ERGONOMIC;
    }

    /** Logs LM2603, and LM2604 for a heap the JVM chose too small. */
    static void log(Heap h) {
        LOG.log(Level.INFO, "LM2603 " + h.describe());
        if (h.tooSmallByDefault()) {
            LOG.log(Level.WARNING, "LM2604 the heap is " + h.maxBytes() / MIB + " MiB, the JVM's default for "
                    + h.machineBytes() / MIB + " MiB of memory, below " + FLOOR_MIB + " MiB: 128 MiB ran out of memory "
                    + "under attack (then the process exits, status 3); set -Xms and -Xmx");
        }
    }
}
