package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.config.ChildPolicy;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.IntervalLog;
import org.loommpm.spi.ProtocolCounters;

/**
 * The supervisor (httpd's parent process): binds the listeners, starts {@code StartServers}
 * children sharing them, replaces a child one-for-one when it retires or fails, and runs
 * generations: graceful restart and graceful stop.
 *
 * <p><b>Sharing the listeners.</b> Every child's poller 0 registers the same listening channels
 * with its own selector; the kernel wakes them all and the losers' {@code accept()} returns
 * {@code null}. The alternative, one SO_REUSEPORT socket per child, lets the kernel spread
 * connections but strands a stopped child's backlog; sharing keeps a draining child's pending
 * connections available to the others, which graceful restart needs.
 *
 * <p><b>Generations.</b> A graceful restart binds the new configuration's new addresses, starts a
 * new generation of children on the resulting listeners, then lets every child of the old
 * generation drain: it accepts nothing more, its responses say {@code Connection: close}, and it
 * exits when its last connection ends. Old children are never replaced. Listeners the new
 * configuration no longer names are closed, what their backlog held handed to a new child.
 *
 * <p><b>Pool policy.</b> {@code ChildPolicy static} keeps {@code StartServers} children, replacing
 * each one-for-one when it retires. {@code ChildPolicy dynamic} also runs {@link DynamicPool} once
 * per maintenance interval: the current generation grows by 1, 2, 4 ... children while it has
 * fewer free worker slots than MinSpareThreads, and shrinks by one child per interval while it
 * has more than MaxSpareThreads (an idle-killed child is not replaced).
 *
 * <p><b>Liveness and start-up.</b> Each interval the {@link PollerWatchdog} checks every poller's
 * heartbeat; a stuck poller makes its child sick (drained, replaced, ended by force after
 * GracefulShutdownTimeout if it is still there). A child that cannot start (no selector, no
 * thread) is retried with back-off (100 ms doubling, at most 10 s). {@link #start()} and
 * {@link #restart} start a generation synchronously: if not one of its children can start after
 * {@value Backoff#START_ATTEMPTS} attempts, they fail (LM0806) instead of leaving a server with no child.
 *
 * <p><b>Parts.</b> This class runs the lifecycle (start, restart, drain, stop) and the
 * maintenance loop; the rest is in classes of their own: {@link Listeners} (the bound sockets,
 * kept across generations), {@link Generation} (what a generation's children run with),
 * {@link ChildStarts} (starting children, retries with {@link Backoff}), {@link DynamicPool} (the
 * pool pass, shared with the jar's process supervisor through {@link ChildHandle}) and
 * {@link PollerWatchdog}. Children are created through a {@link ChildFactory}.
 *
 * <p><b>Threads.</b> Replacement, maintenance and retries run on one platform thread
 * ("loom-supervisor") fed by a queue, so pollers that announce a retiring child never start
 * threads themselves. Restart and stop are called by the embedding application (one at a time).
 */
public final class Supervisor implements EngineStats {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** How long a stop waits for children after ending them by force (pollers end within 100 ms). */
    private static final long FORCED_EXIT_WAIT_MILLIS = 5_000;

    /** The Listen sockets. Bound and closed by the caller of start, restart, drain and stop. */
    private final Listeners listeners = new Listeners();
    private final List<Child> children = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final AtomicLong connectionIds = new AtomicLong();
    private final AtomicInteger childIds = new AtomicInteger();
    private final LongAdder acceptedTotal = new LongAdder();
    private final ProtocolCounters protocolCounters = new ProtocolCounters();
    /** Per-connection timeout lines, one per id per 10 s under a flood; flushed by maintenance. */
    private final IntervalLog intervalLog = new IntervalLog(Duration.ofSeconds(10));
    private final LongAdder[] closedTotal = new LongAdder[CloseReason.values().length];
    private final List<ChildListener> childListeners = new CopyOnWriteArrayList<>();
    private final ChildStarts starts = new ChildStarts(new Starter());
    /** Supervisor thread only. */
    private final DynamicPool dynamic = new DynamicPool();
    /** When the next liveness ping is due ({@link ChildPing}); supervisor thread only. */
    private long nextPingNanos;
    /** Creates the children ({@link ChildFactory#CHILDREN} but in tests). */
    private final ChildFactory factory;
    /**
     * Whether maintenance passes come once per interval (always but in tests that run each pass
     * themselves with {@link #maintenancePass}, to know what every pass saw and did).
     */
    private final boolean timedMaintenance;
    /** While start()/restart() start a generation, maintenance leaves the pool size alone. */
    private volatile boolean generationStarting;
    /** {@link #drain} was called: children are retired and never replaced or added. */
    private volatile boolean drained;
    /**
     * Child starts under way in {@link #startChild} (from before its {@link #drained} check until
     * the child is in {@link #children} and drained if need be). Incremented and decremented by
     * the starting thread, read by {@link #checkDrained}.
     */
    private final AtomicInteger childStartsUnderway = new AtomicInteger();
    /**
     * What {@link #drain} returns: completed by {@link #checkDrained} (whichever thread last
     * removes a child or ends a start) once a drain began and no child is left or still starting.
     */
    private final CompletableFuture<Void> drainedExit = new CompletableFuture<>();
    /**
     * Guards moving an exited child's request and byte counts into the totals below together
     * with removing it from {@link #children}, so a reader never counts it twice or not at all
     * (the totals are monotonic counters for metrics). Held briefly, never around I/O.
     */
    private final Object exitedCountsLock = new Object();
    private long exitedRequests;
    private long exitedBytes;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile Generation current;
    private volatile boolean stopping;
    /**
     * {@link #stop} was called: readiness answers {@link Readiness#STOPPING} from here on, while
     * the listeners still accept for {@code GracefulStopDelay}; {@link #stopping} follows.
     */
    private volatile boolean stopAnnounced;
    private volatile Instant startTime;
    private Thread thread;
    /** Set before start, read by the starting thread and by restarts (published by start's thread start). */
    private volatile TlsTransports tlsTransports = TlsTransports.NONE;
    /** What a poller's, this thread's or a worker's fatal error ends ({@link #fatalHandler}). */
    private final FailStop failStop = new FailStop();

    /**
     * @param config the settings
     * @param handler the protocol every connection is served with
     */
    public Supervisor(ServerConfig config, ConnectionProtocol handler) {
        this(config, handler, ChildFactory.CHILDREN);
    }

    /** A supervisor whose children {@code factory} creates (tests: children that fail to start). */
    Supervisor(ServerConfig config, ConnectionProtocol handler, ChildFactory factory) {
        this(config, handler, factory, true);
    }

    /**
     * A supervisor whose children {@code factory} creates; with {@code timedMaintenance} false it
     * runs no maintenance pass but those {@link #maintenancePass} asks for (tests).
     */
    Supervisor(ServerConfig config, ConnectionProtocol handler, ChildFactory factory, boolean timedMaintenance) {
        this.factory = factory;
        this.timedMaintenance = timedMaintenance;
        this.current = Generation.unbound(config, handler);
        for (int i = 0; i < closedTotal.length; i++) {
            closedTotal[i] = new LongAdder();
        }
    }

    /**
     * Adds a listener told about every child started and exited from now on.
     *
     * @throws IllegalStateException after {@link #start()}: a late listener would miss children
     */
    public void addChildListener(ChildListener listener) {
        if (startTime != null) {
            throw new IllegalStateException("add child listeners before start()");
        }
        childListeners.add(listener);
    }

    /**
     * Binds every listener with {@code SO_REUSEPORT}, so several processes can each bind the same
     * addresses and the kernel spreads new connections over them (a child process of the jar's
     * {@code ChildProcesses On}).
     *
     * @throws IllegalStateException after {@link #start()}
     */
    public void reusePort(boolean on) {
        if (startTime != null) {
            throw new IllegalStateException("set reusePort before start()");
        }
        listeners.reusePort(on);
    }

    /**
     * The TLS implementation of every generation's TLS listeners (default {@link TlsTransports#NONE}).
     *
     * @throws IllegalStateException after {@link #start()}
     */
    public void tlsTransports(TlsTransports transports) {
        if (startTime != null) {
            throw new IllegalStateException("set tlsTransports before start()");
        }
        tlsTransports = Objects.requireNonNull(transports);
    }

    /**
     * What ends after a fatal error: out of memory in an engine thread, a poller or this
     * supervisor's thread dying (see {@link FailStop}). Without one the error is only logged.
     *
     * @throws IllegalStateException after {@link #start()}
     */
    public void fatalHandler(FailStop.Handler handler) {
        if (startTime != null) {
            throw new IllegalStateException("set the fatal handler before start()");
        }
        failStop.handler(Objects.requireNonNull(handler));
    }

    /** The server's fail-stop policy, for its children's pollers and workers. */
    FailStop failStop() {
        return failStop;
    }

    /**
     * Binds every {@code Listen} address and starts the children. Returns once all are bound and
     * the pollers run.
     *
     * @throws IOException if an address cannot be bound (nothing stays bound then)
     */
    public void start() throws IOException {
        ServerConfig config = current.config();
        warnSmallPool(config);
        startTime = Instant.now();
        TransportFactory tls = tls(config, current.handler());
        try {
            current = Generation.of(1, config, current.handler(), listeners.bind(config), tls);
            startGeneration(current);
        } catch (IOException | RuntimeException e) {
            listeners.keepOnly(List.of());
            throw e;
        }
        thread = Thread.ofPlatform().name("loom-supervisor").daemon(false).start(new Maintainer());
        // Built here, not with {0} parameters: the JDK's default backend would format them with
        // MessageFormat, whose number formats load locale data (~15 ms of a one-core start-up).
        LOG.log(Level.INFO, "LM0001 loom-mpm started: " + config.startServers() + " child(ren) x "
                + config.threadsPerChild() + " worker slots, " + config.effectivePollersPerChild()
                + " poller(s) each, listening on " + boundAddresses());
    }

    /**
     * Graceful restart: a new generation of children with {@code config} and {@code handler} starts
     * on the same listeners (new addresses bound, removed ones closed); the old generation stops
     * accepting, finishes its connections and exits. Requests in flight are not disturbed.
     *
     * @throws IOException if a new address cannot be bound; the old generation then keeps serving
     * @throws IllegalStateException after {@link #stop} or {@link #drain} (a drained server starts no child)
     */
    public void restart(ServerConfig config, ConnectionProtocol handler) throws IOException {
        if (stopping || drained) {
            throw new IllegalStateException(stopping ? "server is stopping" : "server is drained");
        }
        warnSmallPool(config);
        TransportFactory tls = tls(config, handler);
        Generation old = current;
        List<ServerSocketChannel> before = listeners.all();
        List<ServerSocketChannel> channels = listeners.bind(config);
        Generation next;
        try {
            next = Generation.of(old.number() + 1, config, handler, channels, tls);
            current = next;
            startGeneration(next);
        } catch (IOException | RuntimeException e) {
            current = old;
            listeners.keepOnly(before);
            throw e;
        }
        List<Child> retiring = new ArrayList<>();
        Child taker = null;
        for (Child c : children) {
            if (c.generation() < next.number()) {
                retiring.add(c);
            } else if (!c.isDraining()) {
                taker = c;
            }
        }
        List<Listener> removed = new ArrayList<>();
        for (Listener l : old.listeners()) {
            if (!channels.contains(l.channel())) {
                removed.add(l);
            }
        }
        // A removed listener's backlog holds connections the kernel already accepted: the new
        // generation serves them rather than the close resetting them.
        if (!removed.isEmpty()) {
            sweepAndClose(retiring, removed, taker);
        }
        for (Child c : retiring) {
            c.drain(ChildState.FINISHING, "graceful restart to generation " + next.number());
        }
        listeners.keepOnly(channels);
        LOG.log(Level.INFO, "LM0012 graceful restart: generation " + next.number() + " started, listening on "
                + boundAddresses());
    }

    /**
     * The TLS transports of a generation (certificates read now, so a restart picks up renewed
     * ones), or {@code null} when no listener speaks TLS.
     *
     * @throws IOException if the key material cannot be used (nothing is bound then)
     */
    private TransportFactory tls(ServerConfig config, ConnectionProtocol handler) throws IOException {
        if (!config.tls().active()) {
            return null;
        }
        return tlsTransports.create(config, handler.applicationProtocols(), protocolCounters);
    }

    private static void warnSmallPool(ServerConfig config) {
        for (String note : config.adjustments()) {
            LOG.log(Level.WARNING, "LM0801 " + note);
        }
        if (config.threadsPerChild() < 4) {
            LOG.log(Level.WARNING, "LM0004 ThreadsPerChild {0} is below 4: a few slow requests hold every "
                    + "worker slot", config.threadsPerChild());
        }
    }

    /**
     * The current generation's addresses (ephemeral ports resolved), in {@code Listen} order
     * (plain listeners first, then {@code https} ones);
     * after a stop, the addresses it was bound to.
     */
    public List<InetSocketAddress> boundAddresses() {
        return current.addresses();
    }

    /**
     * Starts {@code g}'s children (see {@link ChildStarts}) with the dynamic policy's spawn rate
     * reset and its pass held off meanwhile. Caller of {@link #start()} or {@link #restart}.
     *
     * @throws IOException if not one child of the generation could start (LM0806)
     */
    private void startGeneration(Generation g) throws IOException {
        generationStarting = true;
        dynamic.reset();
        try {
            starts.startGeneration(g);
        } finally {
            generationStarting = false;
        }
    }

    /** Creates, registers and starts one child of {@code g}. A class rather than {@code this::startChild} (start-up cost). */
    private final class Starter implements ChildStarts.Starter {
        @Override
        public void start(Generation g) throws IOException {
            startChild(g);
        }
    }

    /**
     * Creates, registers and starts a child of {@code g}; after a {@link #drain} began, starts
     * nothing (and does not fail: there is nothing to retry). Caller of start or restart, or the
     * supervisor thread (a replacement, a retry, the dynamic pool).
     */
    private void startChild(Generation g) throws IOException {
        childStartsUnderway.incrementAndGet();
        try {
            if (drained) {
                return;
            }
            Child c = factory.create(childIds.incrementAndGet(), g, this);
            children.add(c);
            for (ChildListener l : childListeners) {
                l.childStarted(c);
            }
            c.start();
            // A stop or drain that took its list of children before the add above must still end
            // this one: each sets its flag before taking the list, this reads it after the add, so
            // one of the two sees the other. (A stop closed the listeners before taking its list;
            // a drain's sweep did not release them from this child's poller 0, whose next select
            // drops them once closed: whatever it accepted until then it finishes as it drains.)
            if (stopping) {
                c.stop();
            }
            if (drained) {
                c.drain(ChildState.FINISHING, "drain began while it started");
            }
        } finally {
            childStartsUnderway.decrementAndGet();
            checkDrained();
        }
    }

    /**
     * The supervisor thread's task. A class rather than {@code this::maintain}, like the other
     * one-time tasks of the start: each method reference spins a class at its first use, which
     * the first request waits for.
     */
    private final class Maintainer implements Runnable {
        @Override
        public void run() {
            try {
                maintain();
            } catch (Throwable t) {
                // Its own failures are caught per pass (LM0809); what gets here ends the thread:
                // no replacement, retry or watchdog would ever run again.
                failStop.supervisorDied(t);
            }
        }
    }

    /** The supervisor thread: events as they come, maintenance once per interval. */
    private void maintain() {
        long next = System.nanoTime() + current.config().maintenanceInterval().toNanos();
        try {
            while (!stopped.isDone()) {
                long wait = timedMaintenance ? next - System.nanoTime() : Long.MAX_VALUE;
                if (wait <= 0) {
                    try {
                        maintenance(System.nanoTime());
                    } catch (RuntimeException e) {
                        LOG.log(Level.ERROR, "LM0809 supervisor maintenance failed (a bug: please report)", e);
                    }
                    next = System.nanoTime() + current.config().maintenanceInterval().toNanos();
                    continue;
                }
                Runnable r = events.poll(wait, TimeUnit.NANOSECONDS);
                if (r != null) {
                    r.run();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs one maintenance pass on the supervisor thread, after the events queued before it
     * (tests, with passes not timed: see the constructor). Completes once the pass has run;
     * what it started is in {@link #children()} by then.
     */
    CompletableFuture<Void> maintenancePass() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        events.add(() -> {
            try {
                maintenance(System.nanoTime());
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** One maintenance pass (httpd's once-a-second parent loop). Supervisor thread. */
    private void maintenance(long now) {
        // Here, not at start: the management classes cost some milliseconds to load.
        GcPauseTime.SYSTEM.load();
        intervalLog.flush();
        if (stopping) {
            return;
        }
        Generation g = current;
        ServerConfig cfg = g.config();
        PollerWatchdog watchdog = new PollerWatchdog(cfg.childWatchdogTimeout().toNanos());
        for (Child c : children) {
            watchdog.check(c, now);
            c.handshakes().pump(); // handshakes that waited too long end even when nothing else moves
            long sick = c.sickSinceNanos();
            if (sick != 0 && !c.exitRequested() && now - sick > cfg.gracefulShutdownTimeout().toNanos()) {
                LOG.log(Level.WARNING, "LM0804 sick child {0} still has {1} connection(s) after "
                        + "GracefulShutdownTimeout: ending it by force", c.id(), c.openConnections());
                c.forceExit();
            }
        }
        long pingInterval = cfg.childPingInterval().toNanos();
        if (pingInterval > 0 && now - nextPingNanos >= 0) {
            nextPingNanos = now + pingInterval;
            pingChildren(cfg);
        }
        starts.retryDue(g, now);
        if (cfg.childPolicy() == ChildPolicy.DYNAMIC && !generationStarting && !drained) {
            adjustPool(g);
        }
    }

    /**
     * spamd's ping, once per ChildPingInterval: each ready child whose last ping is still
     * unanswered counts a miss; at ChildPingMisses in a row it is marked sick (it stops accepting,
     * a replacement starts, its connections get GracefulShutdownTimeout, then LM0804 ends it by
     * force); every other ready child gets the next ping. Supervisor thread.
     */
    private void pingChildren(ServerConfig cfg) {
        for (Child c : children) {
            if (c.state() != ChildState.READY) {
                continue;
            }
            if (c.liveness.overdue(c.pingAnswered())) {
                LOG.log(Level.ERROR, "LM2010 child {0} (generation {1}) has not answered {2} liveness pings in a row "
                        + "(ChildPingInterval {3} ms): its workers are stuck ({4} busy, {5} pending); it is sick: it "
                        + "stops accepting, finishes its connections and a replacement starts", c.id(), c.generation(),
                        c.liveness.missed(), cfg.childPingInterval().toMillis(), c.activeWorkers(), c.pendingWorkers());
                c.markSick(c.liveness.missed() + " liveness pings unanswered");
                continue;
            }
            c.ping(c.liveness.next());
        }
    }

    /**
     * The engine behind a server's stats (what {@code LoomServer.stats()} returns), for the jar's
     * child processes, which hand it the liveness pings.
     *
     * @throws IllegalArgumentException if {@code stats} is not a started server's
     */
    public static Supervisor of(org.loommpm.api.ServerStats stats) {
        if (stats instanceof Supervisor s) {
            return s;
        }
        throw new IllegalArgumentException("not the stats of a started LoomServer: " + stats.getClass());
    }

    /**
     * Sends liveness ping {@code number} into every ready child's engine; each child that runs it
     * on one of its worker slots reports the number to {@code answer}. For a child process, whose
     * supervisor is another JVM: the number came down its control pipe, the answer goes back
     * through the shared scoreboard. Any thread.
     */
    public void ping(int number, java.util.function.IntConsumer answer) {
        for (Child c : children) {
            if (c.state() == ChildState.READY) {
                c.pool().dispatch(ChildPing.task(number, answer));
            }
        }
    }

    /** The dynamic policy's pass over the current generation; starts what it decides. Supervisor thread. */
    private void adjustPool(Generation g) {
        DynamicPool.Pass pass = dynamic.adjust(children, g.number(), starts.waiting(g), g.config());
        if (pass.spawn() > 0) {
            LOG.log(Level.DEBUG, "LM0802 {0} free worker slots, fewer than MinSpareThreads {1}: starting {2} "
                    + "child(ren) ({3} running)", pass.idle(), g.config().minSpareThreads(), pass.spawn(),
                    pass.running());
            for (int i = 0; i < pass.spawn(); i++) {
                starts.startOrRetry(g);
            }
        }
    }

    /**
     * A child stopped accepting for good: replace it if it belongs to the current generation and
     * was not retired for being idle.
     */
    void childRetiring(Child c) {
        events.add(() -> {
            Generation g = current;
            if (!stopping && !drained && c.generation() == g.number() && c.state() != ChildState.IDLE_KILLED) {
                starts.startOrRetry(g);
            }
        });
    }

    void childExited(Child c) {
        synchronized (exitedCountsLock) {
            exitedRequests += c.requests();
            exitedBytes += c.bytesSent();
            children.remove(c);
        }
        for (ChildListener l : childListeners) {
            l.childExited(c);
        }
        checkDrained();
    }

    /**
     * Completes {@link #drainedExit} once a drain began, no start is under way and every child has
     * exited. Each of the three is written before this reads the others (drain, startChild,
     * childExited), so whichever write comes last sees all three. Any thread.
     */
    private void checkDrained() {
        if (drained && childStartsUnderway.get() == 0 && children.isEmpty()) {
            drainedExit.complete(null);
        }
    }

    long nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    void connectionAccepted() {
        acceptedTotal.increment();
    }

    void connectionClosed(CloseReason reason) {
        closedTotal[reason.ordinal()].increment();
    }

    /**
     * Retires this server for good, the way an old generation is retired by a graceful restart,
     * but with nothing to take over inside this JVM (another process does): the listeners close
     * first (after a last sweep of what the kernel queued on them, handed to a child), so the
     * kernel sends new connections to the other processes bound with {@link #reusePort}; then every child finishes its connections ({@code Connection: close},
     * idle keep-alive connections run out their KeepAliveTimeout) and exits. No child is replaced
     * or added afterwards. Call {@link #stop} after the returned future completes (or to cut the
     * wait short).
     *
     * @return completes when every child has exited, those whose start overlapped the drain included
     */
    public CompletableFuture<Void> drain(String reason) {
        drained = true;
        starts.clear();
        List<Child> now = List.copyOf(children);
        Child taker = null;
        for (Child c : now) {
            if (!c.isDraining()) {
                taker = c;
            }
        }
        List<ServerSocketChannel> channels = listeners.all();
        sweepAndClose(now, current.listeners(), taker);
        Listeners.close(channels); // any left from an older generation
        // Retiring wakes each child's poller 0; its next select deregisters any closed listener it
        // still held (one it did not release in time, or an older generation's).
        for (Child c : now) {
            c.drain(ChildState.FINISHING, reason);
        }
        // So that once this returns, new connections go to the other processes only.
        Listeners.awaitDeregistered(channels);
        // Not just the children of `now`: a start under way (a replacement, a retry) adds its
        // child after that copy, and startChild drains it; the future waits for it too.
        checkDrained();
        return drainedExit;
    }

    /**
     * Closes {@code closing} without resetting what the kernel queued on them: the pollers of
     * {@code holders} let go of them first (they stay open, connections keep queueing), so the
     * sweep takes everything queued (handed to {@code taker}) and its close ends the socket at once.
     */
    private static void sweepAndClose(List<Child> holders, List<Listener> closing, Child taker) {
        List<CompletableFuture<Void>> released = new ArrayList<>();
        for (Child c : holders) {
            released.add(c.releaseListeners());
        }
        try {
            CompletableFuture.allOf(released.toArray(new CompletableFuture<?>[0])).get(1, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            LOG.log(Level.DEBUG, "LM0812 a poller did not release its listeners within 1 s: closing them anyway");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Listener l : closing) {
            Listeners.sweepAndClose(l, taker);
        }
    }

    /**
     * Graceful stop: readiness turns to {@link Readiness#STOPPING} at once; after
     * {@code GracefulStopDelay} (while the listeners still accept) every child stops accepting
     * and closes its idle keep-alive connections; requests in flight finish (their responses say
     * {@code Connection: close}); after {@code timeout} whatever is left is closed. Returns when
     * every child has exited.
     */
    public void stop(Duration timeout) {
        if (stopAnnounced) {
            joinQuietly(stopped);
            return;
        }
        stopAnnounced = true;
        delayStop(current.config().gracefulStopDelay());
        stopping = true;
        starts.clear();
        LOG.log(Level.INFO, "LM0006 graceful stop: finishing in-flight requests (at most {0} ms)", timeout.toMillis());
        // New clients are refused at once rather than left in a backlog nobody will drain.
        listeners.closeAll();
        List<Child> now = List.copyOf(children);
        for (Child c : now) {
            c.stop();
        }
        CompletableFuture<?> all = CompletableFuture.allOf(now.stream().map(Child::exited)
                .toArray(CompletableFuture[]::new));
        try {
            all.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(Level.WARNING, "LM0007 GracefulShutdownTimeout reached: closing {0} connection(s) still open",
                    connectionsOpen());
            for (Child c : children) {
                c.forceExit();
            }
            awaitForcedExit(all);
        } catch (ExecutionException e) {
            LOG.log(Level.ERROR, "LM0008 a child failed while stopping", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopped.complete(null);
        if (thread != null) {
            thread.interrupt();
        }
        intervalLog.flushAll();
        LOG.log(Level.INFO, "LM0009 loom-mpm stopped");
    }

    /**
     * {@code GracefulStopDelay}: readiness already answers 503 (a load balancer that polls it
     * takes the server out) while the listeners still accept, so no client is refused in the
     * meantime. An interrupt ends the wait early.
     */
    private static void delayStop(Duration delay) {
        if (delay.isZero()) {
            return;
        }
        LOG.log(Level.INFO, "LM1900 graceful stop announced: readiness answers 503, still accepting for "
                + "GracefulStopDelay {0} ms", delay.toMillis());
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * After a forced exit pollers end within one loop iteration; one that does not is stuck
     * (see {@link PollerWatchdog}) and is not waited for: the stop completes without it.
     */
    private void awaitForcedExit(CompletableFuture<?> all) {
        try {
            all.get(FORCED_EXIT_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            for (Child c : children) {
                LOG.log(Level.WARNING, "LM0810 child {0} did not end after a forced exit (a poller is stuck); "
                        + "stopping without it", c.id());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.log(Level.DEBUG, "LM0010 wait ended with {0}", e.getCause().toString());
        }
    }

    private static void joinQuietly(CompletableFuture<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.log(Level.DEBUG, "LM0010 wait ended with {0}", e.getCause().toString());
        }
    }

    /** Whether a graceful stop has begun. */
    public boolean isStopping() {
        return stopping;
    }

    @Override
    public Readiness readiness() {
        if (stopAnnounced) {
            return Readiness.STOPPING;
        }
        if (drained) {
            return Readiness.DRAINING;
        }
        return startTime == null ? Readiness.STARTING : EngineStats.super.readiness();
    }

    @Override
    public int generation() {
        return current.number();
    }

    @Override
    public int slotLimit() {
        ServerConfig cfg = current.config();
        return cfg.childPolicy() == ChildPolicy.DYNAMIC ? cfg.childLimit() * cfg.threadsPerChild() : 0;
    }

    @Override
    public long connectionsAccepted() {
        return acceptedTotal.sum();
    }

    @Override
    public long connectionsClosed(CloseReason reason) {
        return closedTotal[reason.ordinal()].sum();
    }

    @Override
    public long requests() {
        synchronized (exitedCountsLock) {
            long n = exitedRequests;
            for (Child c : children) {
                n += c.requests();
            }
            return n;
        }
    }

    @Override
    public ProtocolCounters protocols() {
        return protocolCounters;
    }

    /** Where the engine and the protocols log per-connection lines that come in floods (timeouts). */
    IntervalLog intervalLog() {
        return intervalLog;
    }

    @Override
    public long bytesSent() {
        synchronized (exitedCountsLock) {
            long n = exitedBytes;
            for (Child c : children) {
                n += c.bytesSent();
            }
            return n;
        }
    }

    @Override
    public Instant startTime() {
        Instant t = startTime;
        return t != null ? t : Instant.EPOCH;
    }

    @Override
    public long connectionsOpen() {
        long n = 0;
        for (Child c : children) {
            n += c.openConnections();
        }
        return n;
    }

    @Override
    public List<ChildStats> children() {
        return List.copyOf(children);
    }
}
