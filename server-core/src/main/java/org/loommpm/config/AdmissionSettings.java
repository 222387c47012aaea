package org.loommpm.config;

import java.lang.management.ManagementFactory;

/**
 * Admission control's connection bound, with its default; one {@link ServerConfig} field.
 * {@code docs/configuration.md} and docs/architecture.md ("Worker pool and admission control")
 * describe it.
 *
 * @param openConnectionsPerChild {@code OpenConnectionsPerChild}: the open connections at which a
 *        child stops accepting (resuming at three quarters of it; the kernel's listen backlog
 *        holds the rest), nginx's {@code worker_connections}; 0, the default, derives it from the
 *        heap and the file descriptor limit ({@link #effectiveOpenConnectionsPerChild})
 */
public record AdmissionSettings(int openConnectionsPerChild) {
    /** The default: the bound derived at start. */
    public static final AdmissionSettings DEFAULTS = new AdmissionSettings(0);
    /**
     * What the derived bound counts for each connection of the heap: its context's read and
     * write buffers ({@code ConnectionBufferSize} each, held while it is served or waits for a
     * slot) and this much more for its objects, a parked virtual thread's stack and the
     * protocol's state.
     */
    static final long CONNECTION_OVERHEAD_BYTES = 32 * 1024;
    /** File descriptors kept out of the derived bound (logs, files served, proxy back ends, the JVM's own). */
    static final long RESERVED_DESCRIPTORS = 128;

    /** Checks the bound. */
    public AdmissionSettings {
        if (openConnectionsPerChild < 0) {
            throw new IllegalArgumentException("OpenConnectionsPerChild must be 0 (derived) or positive, got "
                    + openConnectionsPerChild);
        }
    }

    /**
     * The bound a child applies: the configured one, or when it is 0 the smaller of
     * <ul>
     *   <li>half the maximum heap divided among the children and by a connection's cost
     *       ({@code 2 × ConnectionBufferSize + 32 KiB}): the other half stays for what handlers
     *       allocate;</li>
     *   <li>the process's file descriptor limit less {@value #RESERVED_DESCRIPTORS}, divided among
     *       the children;</li>
     * </ul>
     * and never below {@code ThreadsPerChild} (each worker needs a connection to serve). The
     * children counted are {@code StartServers}. Under {@code ChildPolicy dynamic} more children
     * may run, each with this bound: dividing by the most it may run (64 by default) would close
     * a child's listener at a few hundred idle keep-alive connections, which busy workers (what
     * the dynamic policy grows on) never show; set the directive there to bound the total.
     *
     * @param config the server's configuration (children, buffers, pool size)
     * @return the bound, at least 1
     */
    public int effectiveOpenConnectionsPerChild(ServerConfig config) {
        if (openConnectionsPerChild > 0) {
            return openConnectionsPerChild;
        }
        return derived(config, Runtime.getRuntime().maxMemory(), maxDescriptors());
    }

    /** The derivation with explicit heap and descriptor limits ({@code fds <= 0}: unknown). */
    static int derived(ServerConfig config, long maxHeap, long fds) {
        int children = Math.max(1, config.startServers());
        long perConnection = 2L * config.bufferSize() + CONNECTION_OVERHEAD_BYTES;
        long bound = maxHeap / 2 / children / perConnection;
        if (fds > 0) {
            bound = Math.min(bound, Math.max(0, fds - RESERVED_DESCRIPTORS) / children);
        }
        return (int) Math.max(config.threadsPerChild(), Math.min(Integer.MAX_VALUE, bound));
    }

    private static long maxDescriptors() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount() : -1;
    }
}
