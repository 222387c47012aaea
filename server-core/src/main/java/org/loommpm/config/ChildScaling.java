package org.loommpm.config;

/**
 * {@code ChildScaling}: how fast {@code ChildPolicy dynamic} grows the pool while free worker
 * slots are fewer than {@code MinSpareThreads}. Shrinking is the same for both: one idle child
 * per maintenance interval while free slots exceed {@code MaxSpareThreads}.
 */
public enum ChildScaling {
    /**
     * {@code worker} (httpd's worker MPM, {@code perform_idle_server_maintenance}): 1, 2, 4 ... 32
     * children per interval, doubling while the shortage lasts, so a sustained burst is met in a
     * few intervals.
     */
    WORKER,
    /**
     * {@code spamd} (SpamAssassin's prefork scaling): one child per interval, never more, because
     * its children are heavyweight and a burst should not swamp the machine with starts; the pool
     * follows the load more slowly and more smoothly.
     */
    SPAMD
}
