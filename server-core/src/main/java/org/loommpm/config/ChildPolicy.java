package org.loommpm.config;

/**
 * {@code ChildPolicy}: how many children the supervisor runs.
 */
public enum ChildPolicy {
    /**
     * {@code static} (mpm_motorz): {@code StartServers} children, each replaced one-for-one when it
     * retires. Capacity is fixed: the excess requests wait for a worker slot, and connections
     * beyond {@code OpenConnectionsPerChild} wait in the kernel backlog (admission control).
     */
    STATIC,
    /**
     * {@code dynamic} (the worker MPM): once per maintenance interval the supervisor counts the free
     * worker slots of the current generation; above {@code MaxSpareThreads} it retires one child,
     * below {@code MinSpareThreads} it starts 1, 2, 4 ... 32 children (doubling while still short),
     * never beyond {@code ServerLimit} children or {@code MaxRequestWorkers} slots.
     */
    DYNAMIC
}
