package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import org.loommpm.config.ClientChargeSettings;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ClientCharges;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.IntervalLog;
import org.loommpm.spi.ProtocolCounters;

/**
 * A child: one shard of the server (httpd's child process, inside the JVM). It runs
 * {@code PollersPerChild} pollers and one {@link WorkerPool}, and serves connections accepted
 * by its poller 0 from the listeners it shares with the other children.
 *
 * <p>Lifecycle ({@link ChildState} has the model): {@code starting -> ready -> draining -> exited}.
 * A child drains when it reaches MaxConnectionsPerChild (<em>retiring</em>: the supervisor starts
 * its replacement at once), when the dynamic policy retires it (idle-killed), when a poller fails
 * or stops making progress (sick), on a graceful restart, or on a graceful stop (<em>stopping</em>:
 * idle keep-alive connections are closed as well; a sick child is stopping too). A draining child
 * accepts nothing; its responses carry {@code Connection: close}; when its last connection ends,
 * poller 0 ends every poller and the child has exited.
 *
 * <p><b>Threads.</b> Counters are atomics written by pollers and workers; the lifecycle flags are
 * volatile and only ever go from false to true.
 */
public final class Child implements ChildStats, ChildHandle {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final int id;
    private final int generation;
    private final ServerConfig config;
    private final ConnectionProtocol handler;
    private final Supervisor supervisor;
    private final WorkerPool pool;
    private final AdmissionControl admission;
    /** What this child's clients may make it hold in memory ({@code InputBudget}). */
    private final InputBudget inputBudget;
    private final Poller[] pollers;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger contextsHeld = new AtomicInteger();
    private final AtomicInteger pollersLeft;
    private final LongAdder accepted = new LongAdder();
    private final LongAdder[] closed = newAdders(CloseReason.values().length);
    /** Exchanges that ended holding no slot (see {@link #requestDoneWithoutSlot}), and their bytes. */
    private final LongAdder slotlessRequests = new LongAdder();
    private final LongAdder slotlessBytes = new LongAdder();
    private final CompletableFuture<Child> exited = new CompletableFuture<>();
    private int nextPoller;
    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile boolean exitRequested;
    private volatile String drainReason = "";
    /** The draining state, or null while starting or ready; see {@link ChildState} for the transitions. */
    private volatile ChildState finishing;
    /** When the watchdog (or a failed poller) made this child sick; 0 if it is not. */
    private volatile long sickSinceNanos;
    /** The CPU spent for each client address; any thread. */
    private final ClientCharges charges;
    /** TLS handshake steps, admitted below established work. */
    private final HandshakeAdmission handshakes;
    /** The supervisor's liveness ping of this child ({@link ChildPing}); supervisor thread only. */
    final ChildPing liveness;
    /** The highest ping number a worker of this child has answered: written by that worker, read by the supervisor. */
    private volatile int pingAnswered;
    /** Where a ping task reports (one instance, not a lambda per ping). */
    private final java.util.function.IntConsumer pingAnswer = new java.util.function.IntConsumer() {
        @Override
        public void accept(int n) {
            pingAnswered = n;
        }
    };

    /**
     * Opens the pollers' selectors and registers the listeners with poller 0.
     *
     * @throws IOException if a selector cannot be opened or a listener registered (nothing stays open then)
     */
    Child(int id, int generation, ServerConfig config, ConnectionProtocol handler, Supervisor supervisor,
          List<Listener> listeners, PollerProbe probe) throws IOException {
        this.id = id;
        this.generation = generation;
        this.config = config;
        this.handler = handler;
        this.supervisor = supervisor;
        this.liveness = new ChildPing(config.childPingMisses());
        ClientChargeSettings cc = config.clientCharges();
        this.charges = cc.charging() ? new ClientCharges(cc.rate(), cc.burst(), cc.tableSize()) : ClientCharges.OFF;
        this.handshakes = new HandshakeAdmission(this, cc);
        this.admission = new AdmissionControl(config.admission().effectiveOpenConnectionsPerChild(config),
                config.admissionControl());
        this.inputBudget = new InputBudget(config.inputBudget().childBytes(Runtime.getRuntime().maxMemory(),
                config.startServers()));
        int n = config.effectivePollersPerChild();
        this.pollers = new Poller[n];
        this.pollersLeft = new AtomicInteger(n);
        this.pool = new WorkerPool(config.threadsPerChild(), config.slotlessWaits().max(), new SlotFreed(),
                supervisor.failStop(), supervisor.intervalLog());
        try {
            for (int i = 0; i < n; i++) {
                pollers[i] = new Poller(this, i, probe);
            }
            pollers[0].ownListeners(listeners);
        } catch (IOException | RuntimeException e) {
            for (Poller p : pollers) {
                if (p != null) {
                    p.closeUnstarted();
                }
            }
            throw e;
        }
    }

    /**
     * Starts the poller threads.
     *
     * @throws IOException if a thread cannot be created (typically too many threads for the
     *         system): the pollers already started are ended and the child exits at once
     */
    @Override
    public void start() throws IOException {
        int started = 0;
        try {
            for (Poller p : pollers) {
                p.start();
                started++;
            }
        } catch (OutOfMemoryError | RuntimeException e) {
            // Thread creation reports the system's thread limit as an OutOfMemoryError.
            finishing = ChildState.SICK;
            draining = true;
            stopping = true;
            exitRequested = true;
            for (int i = started; i < pollers.length; i++) {
                pollers[i].closeUnstarted();
            }
            for (int i = 0; i < started; i++) {
                pollers[i].requestExit();
            }
            if (pollersLeft.addAndGet(started - pollers.length) == 0) {
                exited.complete(this);
                supervisor.childExited(this);
            }
            throw new IOException("could not start the poller threads of child " + id + ": " + e, e);
        }
    }

    ServerConfig config() {
        return config;
    }

    ConnectionProtocol protocol() {
        return handler;
    }

    /** The server's fail-stop policy ({@link FailStop}). */
    FailStop failStop() {
        return supervisor.failStop();
    }

    /** The registry of the server-wide counts the protocol layers keep. */
    public ProtocolCounters protocolCounters() {
        return supervisor.protocols();
    }

    @Override
    public InputBudget inputBudget() {
        return inputBudget;
    }

    /** The CPU this child spent for each client address ({@link ClientCharges}). */
    ClientCharges charges() {
        return charges;
    }

    /** The admission of TLS handshake steps ({@link HandshakeAdmission}). */
    HandshakeAdmission handshakes() {
        return handshakes;
    }

    /** Where per-connection lines that come in floods (timeouts) are logged: the server's. */
    IntervalLog intervalLog() {
        return supervisor.intervalLog();
    }

    /** The child's workers. */
    public WorkerPool pool() {
        return pool;
    }

    AdmissionControl admission() {
        return admission;
    }

    /** A future completed when every poller of this child has ended. */
    public CompletableFuture<Child> exited() {
        return exited;
    }

    // ---- called by poller 0 ----

    /** A new socket from the listener: count it, bind it to a poller, hand it over. */
    void accepted(SocketChannel ch, Listener listener) {
        accepted.increment();
        supervisor.connectionAccepted();
        open.incrementAndGet();
        Poller target = pollers[nextPoller];
        nextPoller = (nextPoller + 1) % pollers.length;
        Connection c = new Connection(supervisor.nextConnectionId(), ch, target, listener.tls(),
                expectsProxyHeader(listener, ch));
        pollers[0].adopt(ch, c);
        long max = config.maxConnectionsPerChild();
        if (max > 0 && accepted.sum() >= max) {
            drain(ChildState.FINISHING, "MaxConnectionsPerChild " + max + " reached");
        }
    }

    /**
     * Whether {@code ch} starts with a PROXY protocol header: its listener expects one and its
     * client is not among {@code RemoteIPProxyProtocolExceptions} (the accepted channel holds its
     * peer address: no system call).
     */
    private boolean expectsProxyHeader(Listener listener, SocketChannel ch) {
        if (!listener.proxyProtocol()) {
            return false;
        }
        try {
            return !(ch.getRemoteAddress() instanceof java.net.InetSocketAddress peer
                    && config.proxyProtocol().exceptions().test(peer.getAddress()));
        } catch (IOException e) {
            return true; // closed already: the header read will find out
        }
    }

    /** Has the listener-owning poller deregister the listeners (see {@link Poller#releaseListeners}). */
    CompletableFuture<Void> releaseListeners() {
        return pollers[0].releaseListeners();
    }

    /**
     * A socket accepted by a thread other than poller 0: the last sweep of a listener that
     * {@link Supervisor#drain} makes right before closing it, so connections the kernel queued
     * there are served instead of reset by the close. Counted as {@link #accepted} counts, set up
     * here, and handed to a poller through its inbox (the path every registration from another
     * thread takes). Any thread; only before the child retires (its open count keeps it alive).
     */
    void adoptSwept(SocketChannel ch, Listener listener) {
        accepted.increment();
        supervisor.connectionAccepted();
        open.incrementAndGet();
        Poller target = pollers[java.util.concurrent.ThreadLocalRandom.current().nextInt(pollers.length)];
        Connection c = new Connection(supervisor.nextConnectionId(), ch, target, listener.tls(),
                expectsProxyHeader(listener, ch));
        try {
            ch.configureBlocking(false);
            if (config.tcpNoDelay()) {
                ch.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0106 could not set up an accepted socket: {0}", e.toString());
            c.end(CloseReason.ERROR);
            return;
        }
        c.op = HandOff.REGISTER;
        target.handoff(c);
    }

    // ---- lifecycle ----

    /**
     * Stops accepting, finishes the connections it has, and lets the supervisor replace it (unless
     * {@code cause} is {@link ChildState#IDLE_KILLED}). Any thread: the supervisor's, poller 0 (at
     * MaxConnectionsPerChild), or the watchdog's {@link #markSick}.
     *
     * @param cause the draining state: FINISHING, IDLE_KILLED or SICK
     */
    @Override
    public void drain(ChildState cause, String reason) {
        if (!draining) {
            drainReason = reason;
            finishing = cause;
            draining = true;
            LOG.log(Level.INFO, "LM0002 child {0} (generation {1}) retiring: {2}", id, generation, reason);
            supervisor.childRetiring(this);
            // Every poller: each ends its own detached WebSockets (Poller.closeDetachedForDrain).
            for (Poller p : pollers) {
                p.wakeIfSleeping();
            }
        }
    }

    /**
     * The watchdog found a poller stuck (or a poller failed): the child stops accepting, its
     * connections get the graceful-stop treatment (idle keep-alive ones closed, in-flight ones
     * finish with {@code Connection: close}) and the supervisor starts a replacement, unless this
     * child was already draining (its replacement, if any, exists). Supervisor thread or a poller.
     */
    void markSick(String reason) {
        if (finishing == ChildState.SICK) {
            return;
        }
        sickSinceNanos = System.nanoTime();
        stopping = true;
        if (draining) {
            finishing = ChildState.SICK;
            drainReason = reason;
        } else {
            drain(ChildState.SICK, reason);
        }
        for (Poller p : pollers) {
            p.wakeIfSleeping();
        }
    }

    /**
     * Sends liveness ping {@code number} into this child's engine: a worker task through its pool,
     * queued like any other when every slot is taken (see {@link ChildPing}). Any thread.
     */
    void ping(int number) {
        pool.dispatch(ChildPing.task(number, pingAnswer));
    }

    /** The highest ping number this child's workers have answered. Any thread. */
    int pingAnswered() {
        return pingAnswered;
    }

    /** When the child became sick ({@link System#nanoTime()}), 0 if it is not. */
    long sickSinceNanos() {
        return sickSinceNanos;
    }

    Poller[] pollerArray() {
        return pollers;
    }

    /** Graceful stop: like retiring, and idle keep-alive connections are closed now. */
    @Override
    public void stop() {
        if (finishing == null) {
            drainReason = "graceful stop";
            finishing = ChildState.FINISHING;
        }
        stopping = true;
        draining = true;
        for (Poller p : pollers) {
            p.wakeIfSleeping();
        }
    }

    /** Ends every poller now; what is still open is closed. */
    void forceExit() {
        if (finishing == null) {
            finishing = ChildState.FINISHING;
        }
        draining = true;
        stopping = true;
        requestExit();
    }

    /** Whether this child has stopped accepting and is finishing its connections. */
    public boolean isDraining() {
        return draining;
    }

    /** Whether a graceful stop is under way (idle keep-alive connections get closed). */
    public boolean isStopping() {
        return stopping;
    }

    /** Whether every poller has been asked to end (by a drained child or by force). */
    boolean exitRequested() {
        return exitRequested;
    }

    /** Poller 0, each loop: a draining child with no connections left ends. */
    void checkExit() {
        if (draining && open.get() == 0) {
            requestExit();
        }
    }

    private void requestExit() {
        if (!exitRequested) {
            exitRequested = true;
            for (Poller p : pollers) {
                p.requestExit();
            }
        }
    }

    void pollerExited(Poller p) {
        if (!exitRequested) {
            // The failed poller closed its own connections and called the fail-stop handler; until
            // that ends the server, the others finish theirs and no new one comes to this child.
            // Poller 0 runs the exit check, so its failure ends all.
            markSick("a poller ended unexpectedly");
            if (isListenerPoller(p)) {
                requestExit();
            }
        }
        if (pollersLeft.decrementAndGet() == 0) {
            LOG.log(Level.DEBUG, "LM0003 child {0} (generation {1}) exited", id, generation);
            exited.complete(this);
            supervisor.childExited(this);
        }
    }

    // ---- counters ----

    /** Counts an ended connection ({@link Connection#end} calls this once per connection). */
    void connectionEnded(CloseReason reason) {
        closed[reason.ordinal()].increment();
        supervisor.connectionClosed(reason);
        int left = open.decrementAndGet();
        // The listener poller ends a drained child, and resumes accepting once the connections
        // fell to admission control's resume threshold, without waiting for its select timeout.
        if (left == 0 && draining || left <= admission.lo() && !admission.accepting()) {
            pollers[0].wakeIfSleeping();
        }
    }

    void contextAttached() {
        contextsHeld.incrementAndGet();
    }

    void contextReleased() {
        contextsHeld.decrementAndGet();
    }

    /**
     * The pool's slot-freed callback: a slot freed, so established work may no longer wait and
     * queued TLS handshake steps go on. A class rather than a method reference, which would spin
     * a class while the first child starts.
     */
    private final class SlotFreed implements Runnable {
        @Override
        public void run() {
            handshakes.pump();
        }
    }

    boolean isListenerPoller(Poller p) {
        return p == pollers[0];
    }

    // ---- ChildStats ----

    @Override public int id() { return id; }
    @Override public int generation() { return generation; }
    @Override public boolean accepting() { return !draining && admission.accepting(); }
    @Override public boolean draining() { return draining; }

    @Override
    public ChildState state() {
        ChildState f = finishing;
        if (f != null) {
            return f;
        }
        for (Poller p : pollers) {
            if (p.heartbeat() == 0) {
                return ChildState.STARTING;
            }
        }
        return ChildState.READY;
    }

    @Override public String drainReason() { return drainReason; }
    @Override public int openConnections() { return open.get(); }
    @Override public int freeSlots() { return pool.idle(); }
    @Override public long connectionsAccepted() { return accepted.sum(); }
    @Override public long connectionsClosed(CloseReason reason) { return closed[reason.ordinal()].sum(); }
    // Workers' slots plus what the pollers served inline (non-blocking handlers hold no slot)
    // and the exchanges that ended with no slot.
    @Override public long requests() {
        return pool.scoreboard().totalAccesses() + sum(Poller::inlineRequests) + slotlessRequests.sum();
    }
    @Override public long bytesSent() {
        return pool.scoreboard().totalBytesSent() + sum(p -> p.inlineBoard().bytesSent()) + slotlessBytes.sum();
    }

    /** Counts an exchange that ended holding no worker slot (a suspended HTTP/2 one). Any thread. */
    void requestDoneWithoutSlot(long bytesSent) {
        slotlessBytes.add(bytesSent);
        slotlessRequests.increment();
    }
    @Override public int keepAliveConnections() { return (int) sum(Poller::keepAliveConnections); }
    @Override public int lingeringConnections() { return (int) sum(Poller::lingeringConnections); }
    @Override public int detachedConnections() { return (int) sum(Poller::detachedConnections); }
    @Override public List<PollerStats> pollerStats() { return List.of(pollers); }
    @Override public int contextsHeld() { return contextsHeld.get(); }
    @Override public int activeWorkers() { return pool.active(); }
    @Override public int idleWorkers() { return pool.idle(); }
    @Override public int pendingWorkers() { return pool.pending(); }
    @Override public int slotlessWaits() { return pool.lent(); }
    @Override public long admissionTransitions() { return admission.transitions(); }
    @Override public boolean admissionOpen() { return admission.accepting(); }
    @Override public int connectionBound() { return admission.hi(); }
    @Override public long admissionPausedMillis() { return admission.pausedNanos(System.nanoTime()) / 1_000_000; }
    @Override public int pendingNewcomers() { return pool.pendingNewcomers(); }
    @Override public Scoreboard scoreboard() { return pool.scoreboard(); }

    @Override public long pollerWakeups() { return sum(Poller::wakeups); }
    @Override public long dispatches() { return sum(Poller::dispatches); }
    @Override public long timersFired() { return sum(Poller::timersFired); }
    @Override public long recycleHits() { return sum(Poller::recycleHits); }
    @Override public long recycleMisses() { return sum(Poller::recycleMisses); }
    @Override public long recycleDrops() { return sum(Poller::recycleDrops); }
    @Override public int recycleListSize() { return (int) sum(Poller::recycleSize); }

    private static LongAdder[] newAdders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    private long sum(ToLongFunction<Poller> f) {
        long n = 0;
        for (Poller p : pollers) {
            n += f.applyAsLong(p);
        }
        return n;
    }

    @Override
    public int pollers() {
        return pollers.length;
    }
}
