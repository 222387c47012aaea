package org.loommpm.status;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.loommpm.engine.ChildState;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;
import org.loommpm.engine.Scoreboard;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.ProtocolCounters;

/**
 * What the status page shows, read once from the engine's counters so that the HTML, {@code ?auto}
 * and {@code ?json} renderings of one request agree with each other. The engine's values are
 * read without locks: each is recent, the whole is not an atomic snapshot.
 *
 * <p>Scoreboard letters are the engine's, except for a child that is starting (its free slots
 * show {@code S}) or draining (finishing, idle-killed, sick): its busy slots show {@code G}
 * (gracefully finishing) and its free slots {@code .} (they will take no more work), or
 * {@code I} for a child the dynamic policy retired as idle, as httpd shows a process on its way out.
 * Under {@code ChildPolicy dynamic} the slots the pool may still grow to (no child has them yet)
 * follow as {@code .}, httpd's "open slot with no current process".
 */
record StatusSnapshot(String serverName, String version, Instant now, Instant started, long uptimeSeconds,
                      int generation, long requests, long bytesSent, long accepted, long open,
                      Map<CloseReason, Long> closed, int keepAlive, int lingering, int busy, int idle, int pending,
                      int graceful, List<Child> children, List<Current> current, int openSlots,
                      Streaming streaming, long webSockets, long proxyTunnels, Budget inputBudget,
                      SortedMap<String, Long> logLines) {

    /**
     * The children's input budgets together: what clients make them hold now, at most, the most
     * held at once (the sum of each child's mark), and the reservations refused.
     */
    record Budget(long used, long limit, long highWater, long refusals) {
    }

    /**
     * What waits without a worker slot: connections DETACHED (no thread, no slot: suspended
     * exchanges, event streams, idle WebSockets, HTTP/2 connections whose streams are all
     * suspended), tasks parked on a client without their slot ({@code slotless}: request bodies
     * not arriving, HTTP/2 responses held back by the client's window; MaxSlotlessWaits bounds
     * them), suspended exchanges and event streams open now (HTTP/1.1 and HTTP/2), deadlines
     * passed so far.
     */
    record Streaming(int detached, int slotless, long suspended, long eventStreams, long suspendTimeouts) {
    }

    /** One child's row. */
    record Child(int id, int generation, String state, boolean draining, String drainReason, boolean accepting,
                 boolean admissionOpen, long admissionTransitions, int connectionBound, long admissionPausedMillis,
                 int open, long accepted, long closed,
                 long requests, long bytesSent, int active, int idle, int pending, int pendingNewcomers, int slots,
                 int keepAlive,
                 int lingering, int contextsHeld, String scoreboard, List<Poller> pollers) {
        long recycleHits() {
            return pollers.stream().mapToLong(Poller::recycleHits).sum();
        }

        long recycleMisses() {
            return pollers.stream().mapToLong(Poller::recycleMisses).sum();
        }

        long recycleDrops() {
            return pollers.stream().mapToLong(Poller::recycleDrops).sum();
        }

        int recycleSize() {
            return pollers.stream().mapToInt(Poller::recycleSize).sum();
        }
    }

    /** One poller's row. */
    record Poller(int index, long wakeups, long dispatches, long timersFired, int keepAlive, int lingering,
                  int recycleSize, long recycleHits, long recycleMisses, long recycleDrops) {
    }

    /** A request being served ({@code W} slot) or logged ({@code L}). Everything but the numbers came from the client. */
    record Current(int child, int slot, char state, String client, String vhost, String method, String path,
                   long ageMillis) {
    }

    static final String MPM = "loom";

    /** @param logLines the error log's lines per id, or {@code null} when the page has none */
    static StatusSnapshot take(EngineStats stats, String serverName, String version, SortedMap<String, Long> logLines) {
        Instant now = Instant.now();
        long nowNanos = System.nanoTime();
        Instant started = stats.startTime();
        long uptime = Math.max(0, Duration.between(started, now).toSeconds());
        List<Child> children = new ArrayList<>();
        List<Current> current = new ArrayList<>();
        int busy = 0;
        int idle = 0;
        int pending = 0;
        int graceful = 0;
        int keepAlive = 0;
        int lingering = 0;
        int servingSlots = 0;
        int detached = 0;
        long[] budget = new long[4];
        int slotless = 0;
        for (ChildStats c : stats.children()) {
            detached += c.detachedConnections();
            slotless += c.slotlessWaits();
            InputBudget b = c.inputBudget();
            if (b != null) {
                budget[0] += b.used();
                budget[1] += b.limit();
                budget[2] += b.highWater();
                budget[3] += b.refusals();
            }
            Child row = child(c);
            children.add(row);
            busy += row.active();
            pending += row.pending();
            keepAlive += row.keepAlive();
            lingering += row.lingering();
            if (c.draining()) {
                graceful += row.active();
            } else {
                idle += row.idle();
                servingSlots += row.slots();
            }
            currentRequests(c, nowNanos, current);
        }
        current.sort(Comparator.comparingLong(Current::ageMillis).reversed());
        Map<CloseReason, Long> closed = new EnumMap<>(CloseReason.class);
        for (CloseReason r : CloseReason.values()) {
            closed.put(r, stats.connectionsClosed(r));
        }
        // By the names their protocols registered them under (0 before a protocol's first use).
        ProtocolCounters p = stats.protocols();
        // Totals last: a request counted in a child's row above is then also in the totals.
        return new StatusSnapshot(serverName, version, now, started, uptime, stats.generation(), stats.requests(),
                stats.bytesSent(), stats.connectionsAccepted(), stats.connectionsOpen(), closed, keepAlive,
                lingering, busy, idle, pending, graceful, List.copyOf(children), List.copyOf(current),
                Math.max(0, stats.slotLimit() - servingSlots),
                new Streaming(detached, slotless, p.value("loom.suspended.exchanges"), p.value("loom.eventstreams.open"),
                        p.value("loom.suspended.timeouts")),
                p.value("loom.websocket.open"), p.value("loom.proxy.tunnels.open"),
                new Budget(budget[0], budget[1], budget[2], budget[3]), logLines);
    }

    private static Child child(ChildStats c) {
        // Totals before idles, as the admission rule reads them.
        int active = c.activeWorkers();
        int idle = c.idleWorkers();
        List<Poller> pollers = new ArrayList<>();
        for (PollerStats p : c.pollerStats()) {
            pollers.add(new Poller(p.index(), p.wakeups(), p.dispatches(), p.timersFired(), p.keepAliveConnections(),
                    p.lingeringConnections(), p.recycleSize(), p.recycleHits(), p.recycleMisses(), p.recycleDrops()));
        }
        ChildState state = c.state();
        return new Child(c.id(), c.generation(), state.label(), state.draining(), c.drainReason(), c.accepting(), c.admissionOpen(),
                c.admissionTransitions(), c.connectionBound(), c.admissionPausedMillis(), c.openConnections(),
                c.connectionsAccepted(), c.connectionsClosed(),
                c.requests(), c.bytesSent(), active, idle, c.pendingWorkers(), c.pendingNewcomers(), c.scoreboard().size(),
                c.keepAliveConnections(), c.lingeringConnections(), c.contextsHeld(), letters(c),
                List.copyOf(pollers));
    }

    private static String letters(ChildStats c) {
        String s = c.scoreboard().render();
        ChildState state = c.state();
        if (state == ChildState.READY) {
            return s;
        }
        char free = switch (state) {
            case STARTING -> (char) Scoreboard.STARTING;
            case IDLE_KILLED -> 'I';
            default -> '.';
        };
        char[] out = s.toCharArray();
        for (int i = 0; i < out.length; i++) {
            if (out[i] == (char) Scoreboard.WAITING) {
                out[i] = free;
            } else if (state.draining()) {
                out[i] = 'G';
            }
        }
        return new String(out);
    }

    private static void currentRequests(ChildStats c, long nowNanos, List<Current> out) {
        Scoreboard board = c.scoreboard();
        for (int slot = 0; slot < board.size(); slot++) {
            char letter = board.state(slot);
            if (letter != (char) Scoreboard.WRITING && letter != (char) Scoreboard.LOGGING) {
                continue;
            }
            Scoreboard.CurrentRequest r = board.current(slot);
            if (r == null) {
                continue;
            }
            long age = Math.max(0, (nowNanos - r.startNanos()) / 1_000_000);
            out.add(new Current(c.id(), slot, c.draining() ? 'G' : letter, client(r.client()), r.request().host(),
                    r.request().method(), r.request().path(), age));
        }
    }

    private static String client(InetSocketAddress a) {
        if (a == null) {
            return "";
        }
        return a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
    }

    /** {@return requests per second since start (0 in the first second)} */
    double reqPerSec() {
        return uptimeSeconds > 0 ? (double) requests / uptimeSeconds : 0;
    }

    /** {@return response bytes per second since start} */
    double bytesPerSec() {
        return uptimeSeconds > 0 ? (double) bytesSent / uptimeSeconds : 0;
    }

    /** {@return response bytes per request} */
    double bytesPerReq() {
        return requests > 0 ? (double) bytesSent / requests : 0;
    }

    /** {@return every child's letters, concatenated in child order, then the open slots (mod_status's Scoreboard line)} */
    String scoreboard() {
        StringBuilder b = new StringBuilder();
        for (Child c : children) {
            b.append(c.scoreboard());
        }
        b.repeat('.', openSlots);
        return b.toString();
    }

    /** {@return children draining (httpd's "Stopping" processes)} */
    long stopping() {
        return children.stream().filter(Child::draining).count();
    }

    /** {@return admission transitions summed over the live children} */
    long admissionTransitions() {
        return children.stream().mapToLong(Child::admissionTransitions).sum();
    }

    /** {@return children whose admission control has the listener off now} */
    long admissionOff() {
        return children.stream().filter(c -> !c.admissionOpen()).count();
    }
}
