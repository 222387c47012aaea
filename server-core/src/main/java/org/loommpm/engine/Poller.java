package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.EventLoop;

/**
 * A poller: one platform thread around one {@link Selector} (motorz's poll thread).
 *
 * <p>Each loop iteration: sleep in {@code select} until the next deadline (at most 100 ms) or a
 * hand-off, apply the hand-offs in the inbox, handle ready keys (accept, claim and dispatch,
 * wake parked workers, drain lingering closes), expire timers, and, on the listener-owning
 * poller, apply the admission rule. A poller never blocks on a socket, and runs handler code only
 * for handlers that declared they never block ({@code api.InvocationType#NON_BLOCKING}), on
 * whole requests of plaintext connections: {@link InlineServing}.
 *
 * <p><b>Thread confinement.</b> The selector, every key's interest set, the {@link TimerRing}
 * and the state of poller-owned connections are touched only by this thread. Other threads
 * reach it through {@link #handoff} (the {@link HandoffQueue}) and {@link #recycle} (the
 * {@link ContextRecycling}'s list, where this thread is the single consumer). A producer wakes the selector
 * only when the poller has announced it is about to sleep ({@link #sleeping}), so a busy poller
 * takes hand-offs with no wake-up system call; and a connection going idle with its read
 * interest still armed does not wake it at all ({@link #handoffIdle}).
 *
 * <p><b>Helpers.</b> Some states are served by poller-confined helpers, one each per poller,
 * called from this loop on this thread only: {@link DetachedService} (DETACHED connections and
 * their outbound queues), {@link ProxyHeaderService} (PROXY_HEADER), {@link LingeringClose}
 * (LINGER), {@link InlineServing} (the inline path), {@link LoopTasks} (the {@link EventLoop} side:
 * channels and tasks of non-blocking code) and {@link PollerShutdown} (the
 * graceful-stop and drain sweeps, the forced close at exit). The package-private methods they call back ({@link #claimAndDispatch},
 * {@link #arm}, {@link #apply}, {@link #close(Connection)}, ...) are for this thread only as well.
 *
 * <p><b>Counts.</b> The counters below, and the DETACHED and LINGER counts of the helpers, are
 * written by this thread only (plain increments of volatile fields: one writer, so no update is
 * lost) and read by anyone. The KEEPALIVE, DETACHED and LINGER populations are counted on every
 * transition into and out of those states, all of which happen on this thread, so they are exact.
 */
public final class Poller implements Runnable, PollerStats {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** The event loop of the poller the calling thread runs (set by {@link #run} on its own thread). */
    /** The longest select: also bounds how late a lazy KEEPALIVE hand-back is applied ({@link #handoffIdle}). */
    private static final long MAX_SLEEP_MS = 100;
    /** Pokes handled per loop iteration (see {@link #drainPokes}). */
    private static final int MAX_POKES_PER_ITERATION = 1024;

    private final Child child;
    /** What protocols may use of the child (see {@link Connection#services()}). */
    private final ChildServicesView services;
    private final int index;
    private final Selector selector;
    private final HandoffQueue inbox = new HandoffQueue();
    /**
     * Connections a stream task has {@link Connection#signal signalled}. Contract: any thread
     * offers (at most once per connection until this poller polls it, guarded by the
     * connection's poke flag); only this poller polls.
     */
    private final ConcurrentLinkedQueue<Connection> pokes = new ConcurrentLinkedQueue<>();
    private final TimerRing timers = new TimerRing();
    /** The recycle list of connection contexts and its counts. */
    private final ContextRecycling contexts;
    private final AtomicBoolean sleeping = new AtomicBoolean();
    /** Lingering closes and their count. */
    private final LingeringClose lingeringClose;
    /** DETACHED connections: their queues, closes and count. */
    private final DetachedService detachedService;
    /** The PROXY_HEADER state (PROXY protocol listeners). */
    private final ProxyHeaderService proxyHeaders;
    /** The graceful-stop and drain sweeps, and the forced close at exit. */
    private final PollerShutdown shutdown;
    private final Runnable waker = new Waker();
    /** One instance for every select (a method reference at the call would allocate one per loop). */
    private final Consumer<SelectionKey> readyAction = new ReadyAction();
    /** Accepting, for the listener-owning poller (the others never register a listener). */
    private final Acceptor acceptor;
    /** Connections reported ready while a worker owned them, settled after the inbox (see {@link #onReady}). */
    private final List<Connection> readyWhileOwned = new ArrayList<>();
    private final long keepAliveNanos;
    /** A new connection's wait for its first byte ({@link org.loommpm.config.ServerConfig#firstByteWait}). */
    private final long firstByteNanos;
    private final long timeoutNanos;
    /** The inline path: requests of non-blocking handlers served on this thread. */
    private final InlineServing inline;
    /** The {@link EventLoop} side: channels non-blocking code registered here, and queued tasks. */
    private final LoopTasks loopTasks;
    /**
     * The {@link InlineBoard#servingSince()} the watchdog last reported (LM2501), so one stuck
     * handler is reported once; written and read by the supervisor thread only.
     */
    long inlineReported;
    private Thread thread;
    /** Connections dispatched in the current loop iteration. */
    private int dispatchedThisRound;
    /**
     * Set when every busy worker was dispatched by the last iteration (the workers were idle:
     * moderate load). The next iteration then yields the core before it selects, so the workers
     * just dispatched read their sockets first: epoll is level-triggered, and a select that finds
     * their bytes still unread reports them again, which costs dropping the read interest, a
     * wake-up at the hand-back and the re-arm ({@code epoll_ctl} twice). With a core to spare the
     * yield returns at once. Not under load, where workers are already busy and batching works:
     * there a yield only lets the poller fall behind. Not while the child drains either: a closed
     * listener stays queueing connections in the kernel (which its close then resets) until this
     * poller's next select deregisters it, and a yield on a contended core delays that select.
     */
    private boolean yieldToWorkers;
    private volatile boolean exit;
    private volatile boolean exited;
    /**
     * Liveness: the {@link System#nanoTime()} of the last loop iteration, 0 before the first.
     * Written by this poller only (one plain volatile store per iteration); read by the
     * supervisor's {@link PollerWatchdog}.
     */
    private volatile long heartbeat;
    /** When the thread was started ({@link System#nanoTime()}), 0 before: the watchdog's base until the first heartbeat. */
    private volatile long startedNanos;
    /** The child's probe, called at the top of every iteration; {@code null} in production. */
    private final PollerProbe probe;

    private volatile long wakeups;
    private volatile long dispatches;
    private volatile long timersFired;
    private volatile int keepAlive;
    /** How the connections still open end if the loop stops: ERROR when it failed, else ABORT. */
    private CloseReason exitReason = CloseReason.ABORT;

    Poller(Child child, int index, PollerProbe probe) throws IOException {
        this.child = child;
        this.probe = probe;
        this.services = new ChildServicesView(child);
        this.index = index;
        this.selector = Selector.open();
        var cfg = child.config();
        this.contexts = new ContextRecycling(cfg.recycleListSize(), cfg.bufferSize());
        this.acceptor = new Acceptor(child);
        this.keepAliveNanos = cfg.keepAliveTimeout().toNanos();
        this.firstByteNanos = cfg.firstByteWait().toNanos();
        this.timeoutNanos = cfg.timeout().toNanos();
        this.inline = new InlineServing(this, new InlineStallReport(threadName(),
                cfg.nonBlockingHandlerLimit().toNanos(), GcPauseTime.SYSTEM));
        this.lingeringClose = new LingeringClose(this, cfg.lingerTimeout().toNanos());
        this.detachedService = new DetachedService(this, child, timers, lingeringClose);
        this.proxyHeaders = new ProxyHeaderService(this, child, timers);
        this.shutdown = new PollerShutdown(this, child, selector, inbox);
        this.loopTasks = new LoopTasks(this, selector);
    }

    /** Registers the shared listeners with this poller (the listener-owning one). Before start. */
    void ownListeners(List<Listener> listeners) throws IOException {
        acceptor.own(listeners, selector);
    }

    void start() {
        startedNanos = System.nanoTime();
        thread = Thread.ofPlatform().name(threadName()).daemon(false).start(this);
    }

    private String threadName() {
        return "loom-c" + child.id() + "-poller-" + index;
    }

    ChildServicesView services() {
        return services;
    }

    Child child() {
        return child;
    }

    /** The last iteration's {@link System#nanoTime()}, 0 before the first. Any thread. */
    long heartbeat() {
        return heartbeat;
    }

    /** When {@link #start()} ran, 0 before. Any thread. */
    long startedNanos() {
        return startedNanos;
    }

    /** The poller's thread, for the watchdog's stack trace (null before start). */
    Thread thread() {
        return thread;
    }

    /** The request counts of what this poller served inline. Any thread. */
    InlineBoard inlineBoard() {
        return inline.board();
    }

    /** {@code Timeout}, for deadlines a connection served inline sets itself. */
    long timeoutNanos() {
        return timeoutNanos;
    }

    /** Makes the loop go round once more soon (an exit, a release, a probe's next iteration). Any thread. */
    void wakeup() {
        sleeping.set(false);
        selector.wakeup();
    }

    /** Closes the selector of a poller whose thread never started (a child that failed to start). */
    void closeUnstarted() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // Nothing was registered that could still need it.
        }
    }

    // ---- called from other threads ----

    /** Hands a connection to this poller (see {@link Connection#op}). Any thread. */
    void handoff(Connection c) {
        inbox.push(c);
        wakeIfSleeping();
    }

    /**
     * A KEEPALIVE hand-back, which wakes a sleeping poller only when something must happen at
     * once. In the usual case the key's read interest is still armed (it is dropped only when
     * the socket turned readable while the worker owned it; see {@link #claimAndDispatch}), so
     * the client's next request, or its close, wakes the poller anyway and the hand-back is
     * applied first (see {@link #settleReadyWhileOwned}); until then the connection merely waits
     * in the inbox. This saves the wake-up and one poller round trip per request at moderate
     * load, where each request arrives alone. The cost: the keep-alive deadline and the
     * keep-alive count follow up to {@link #MAX_SLEEP_MS} later.
     *
     * <p>Immediate wake-ups remain for bytes already decrypted ({@code buffered}: no readiness
     * will come for them), a graceful stop, and a dropped read interest. The last is a Dekker
     * pair: the worker pushes (CAS) then reads {@link Connection#readArmed}; the poller writes
     * it false before it next looks at the inbox. Either the worker sees false and wakes the
     * poller, or the poller's next look at the inbox finds the hand-back.
     */
    void handoffIdle(Connection c, boolean buffered) {
        inbox.push(c);
        if (buffered || !c.readArmed || child.isStopping()) {
            wakeIfSleeping();
        }
    }

    /** Asks for a signalled connection's dispatch (see {@link Connection#signal}). Any thread. */
    void poke(Connection c) {
        pokes.offer(c);
        wakeIfSleeping();
    }

    /** Returns a context for reuse, or drops it when the list is full. Any thread. */
    void recycle(ConnectionContext ctx) {
        child.contextReleased();
        contexts.give(ctx);
    }

    /**
     * Wakes the selector if, and only if, this poller is (about to be) blocked in it.
     *
     * <p>From a virtual thread the wake-up is deferred to a short virtual thread queued behind
     * the workers already runnable: the scheduler is FIFO, so the poller is woken once after the
     * current batch of workers instead of once per hand-off (on a busy core each eager wake-up
     * preempts the worker batch and costs two context switches). The CAS on {@link #sleeping}
     * makes every sleep cost at most one wake-up.
     */
    void wakeIfSleeping() {
        if (sleeping.get() && sleeping.compareAndSet(true, false)) {
            if (Thread.currentThread().isVirtual()) {
                Thread.startVirtualThread(waker);
            } else {
                selector.wakeup();
            }
        }
    }

    /**
     * Deregisters the listeners from this poller's selector, leaving them open, and completes once
     * that is done, so the supervisor can sweep and close them itself: a registered channel's
     * close waits for the next select, and with SO_REUSEPORT the kernel keeps queueing (then
     * resets) connections on it until then. Any thread; the loop does the work.
     */
    CompletableFuture<Void> releaseListeners() {
        CompletableFuture<Void> done = acceptor.requestRelease();
        wakeup();
        return done;
    }

    /** Asks the loop to end after closing what it still holds. */
    void requestExit() {
        exit = true;
        wakeup();
    }

    /** Whether the loop has ended; hand-offs are no longer applied after that. */
    boolean hasExited() {
        return exited;
    }

    // ---- the loop ----

    @Override
    public void run() {
        EventLoop.bindCurrentThread(loopTasks);
        try {
            loop();
        } catch (Throwable t) {
            exitReason = CloseReason.ERROR;
            // First, before closing anything: the cleanup below allocates, and under memory
            // exhaustion may fail itself.
            child.failStop().pollerDied(t);
        } finally {
            shutdown.closeAll(exitReason);
            exited = true;
            loopTasks.loopEnded();
            shutdown.endHandoffsAfterExit();
            try {
                selector.close();
            } catch (IOException ignored) {
                // The selector is going away with its thread.
            }
            child.pollerExited(this);
        }
    }

    private void loop() throws IOException {
        while (!exit) {
            if (yieldToWorkers) {
                yieldToWorkers = false;
                if (!child.isDraining()) {
                    Thread.yield();
                }
            }
            long now = System.nanoTime();
            heartbeat = now;
            if (probe != null) {
                probe.iteration(this);
            }
            long next = timers.nextDeadline();
            long sleepMs = next == Long.MAX_VALUE ? MAX_SLEEP_MS
                    : Math.min(MAX_SLEEP_MS, Math.max(0, (next - now + 999_999) / 1_000_000));
            CompletableFuture<Void> release = acceptor.cancelIfReleasing(); // the select deregisters
            sleeping.set(true);
            if (!inbox.isEmpty() || !pokes.isEmpty() || !loopTasks.isEmpty() || exit || sleepMs == 0 || release != null) {
                sleeping.set(false);
                selector.selectNow(readyAction);
            } else {
                selector.select(readyAction, sleepMs);
                sleeping.set(false);
            }
            wakeups++;
            if (release != null) {
                acceptor.released(release);
            }
            drainInbox();
            settleReadyWhileOwned();
            drainPokes();
            loopTasks.run();
            expireTimers(System.nanoTime());
            if (child.isListenerPoller(this)) {
                acceptor.updateAdmission();
                child.checkExit();
            }
            shutdown.sweep();
            yieldToWorkers = dispatchedThisRound > 0 && child.pool().active() <= dispatchedThisRound;
            dispatchedThisRound = 0;
        }
    }

    /** Applies every hand-off in the inbox. Poller thread only. */
    void drainInbox() {
        Connection c = inbox.takeAll();
        while (c != null) {
            Connection next = c.handoffNext;
            c.handoffNext = null;
            apply(c);
            c = next;
        }
    }

    /**
     * Dispatches signalled MULTIPLEXED connections and serves DETACHED ones (their queue, a
     * close, a signal); any other state's owner sees the flag and the queue itself.
     */
    private void drainPokes() {
        Connection c;
        // Bounded per iteration: producers (a broadcast to thousands of detached connections)
        // may poke faster than one poller writes, and an unbounded drain would then never end
        // the iteration (no heartbeat: the watchdog would call the child stuck, and deadlines
        // and readiness would wait). What is left is taken next iteration, after a selectNow.
        for (int n = 0; n < MAX_POKES_PER_ITERATION && (c = pokes.poll()) != null; n++) {
            c.pokeTaken();
            if (c.hasEnded()) {
                continue;
            }
            if (c.state == ConnState.MULTIPLEXED) {
                claimAndDispatch(c);
            } else if (c.state == ConnState.DETACHED) {
                detachedService.service(c);
            }
        }
    }

    /** Applies one hand-off. The connection is this poller's from here on (or its worker's, parked). */
    void apply(Connection c) {
        // Taken before acting: a hand-off may dispatch the connection again (watch, graceful
        // close), and the new owner's next hand-off writes op while this one is still returning.
        HandOff op = c.op;
        c.op = HandOff.NONE;
        if (c.hasEnded()) {
            // Force-closed while its worker still ran: unwind a parked worker, finalize the rest.
            if (op.parksWorker()) {
                c.wakeWorker(Wake.CLOSED);
            } else {
                close(c);
            }
            return;
        }
        try {
            switch (op) {
                case REGISTER -> register(c);
                case KEEPALIVE -> {
                    if (c.transport().hasBufferedInput()) {
                        claimAndDispatch(c); // no readiness will come for bytes already read
                    } else if (child.isStopping() && c.protocol().closesGracefully() && !c.closeRequested) {
                        requestGracefulClose(c);
                    } else if (child.isStopping()) {
                        close(c, CloseReason.NORMAL);
                    } else {
                        arm(c, ConnState.KEEPALIVE, SelectionKey.OP_READ, keepAliveNanos);
                    }
                }
                case READ_WAIT -> {
                    if (c.transport().hasBufferedInput()) {
                        claimAndDispatch(c);
                        break;
                    }
                    c.state = ConnState.ASYNC_WAITIO;
                    interest(c, SelectionKey.OP_READ);
                    timers.scheduleAt(c, c.headDeadline);
                }
                case WATCH -> watch(c);
                case DETACH -> detachedService.detach(c);
                case AWAIT_READ -> awaitRead(c);
                case AWAIT_WRITE -> arm(c, ConnState.WRITE_COMPLETION, SelectionKey.OP_WRITE, timeoutNanos);
                case LINGER -> lingeringClose.start(c);
                case CLOSE -> close(c);
                default -> throw new IllegalStateException("unknown hand-off " + op + " for " + c);
            }
        } catch (RuntimeException | IOException e) {
            LOG.log(Level.DEBUG, "LM0103 hand-off failed for {0}: {1}", c, e.toString());
            failWaiterOrClose(c, op, CloseReason.ERROR);
        }
    }

    /** A parked reader: woken by readiness, {@code Timeout}, or its own deadline when that is sooner. */
    private void awaitRead(Connection c) {
        long deadline = c.awaitDeadline;
        long now = System.nanoTime();
        if (deadline == 0 || deadline - (now + timeoutNanos) >= 0) {
            arm(c, ConnState.SUSPENDED, SelectionKey.OP_READ, timeoutNanos);
            return;
        }
        c.state = ConnState.SUSPENDED;
        interest(c, SelectionKey.OP_READ);
        timers.scheduleAt(c, deadline);
    }

    /** Interest and deadline set together: the re-arm half of the ownership protocol. Poller thread only. */
    void arm(Connection c, ConnState state, int ops, long timeout) {
        if (state == ConnState.KEEPALIVE) {
            enterKeepAlive(c);
        } else {
            c.state = state;
            if (state == ConnState.LINGER) {
                lingeringClose.entered();
            }
        }
        interest(c, ops);
        timers.schedule(c, timeout, System.nanoTime());
    }

    /**
     * MULTIPLEXED: dispatched again on readiness, a signal or the deadline. A signal that came
     * before this hand-off was applied (its poke found the connection still PROCESSING) is seen
     * here through the flag, so none is lost.
     */
    private void watch(Connection c) {
        // Set first: a dispatch from here on is the owner's (see claimAndDispatch).
        c.state = ConnState.MULTIPLEXED;
        if (c.signalPending() || c.transport().hasBufferedInput()) {
            claimAndDispatch(c);
            return;
        }
        if (child.isStopping() && !c.closeRequested) {
            requestGracefulClose(c);
            return;
        }
        interest(c, SelectionKey.OP_READ);
        if (c.watchDeadline != 0) {
            timers.scheduleAt(c, c.watchDeadline);
        }
    }

    /** Dispatches an idle connection so that its protocol ends it (HTTP/2: GOAWAY first). Poller thread only. */
    void requestGracefulClose(Connection c) {
        c.closeRequested = true;
        claimAndDispatch(c);
    }

    private void register(Connection c) throws IOException {
        c.key = c.channel().register(selector, SelectionKey.OP_READ, c);
        if (c.proxyHeader != null) {
            proxyHeaders.start(c);
            return;
        }
        arm(c, ConnState.KEEPALIVE, SelectionKey.OP_READ, firstByteNanos);
    }

    /** Called by {@link Selector#select(java.util.function.Consumer, long)} for each ready key. */
    private void onReady(SelectionKey key) {
        Object att = key.attachment();
        if (att instanceof Listener listener) {
            acceptor.acceptReady(listener);
            return;
        }
        if (att instanceof EventLoop.Watcher w) {
            loopTasks.ready(w, key);
            return;
        }
        Connection c = (Connection) att;
        if (!key.isValid()) {
            return;
        }
        switch (c.state) {
            case KEEPALIVE, ASYNC_WAITIO, MULTIPLEXED -> claimAndDispatch(c);
            case PROXY_HEADER -> proxyHeaders.readReady(c);
            case DETACHED -> detachedService.ready(c, key.readyOps());
            case SUSPENDED, WRITE_COMPLETION -> {
                interest(c, 0);
                timers.cancel(c);
                c.wakeWorker(Wake.READY);
            }
            case LINGER -> lingeringClose.drain(c);
            default -> readyWhileOwned.add(c); // its hand-back may be in the inbox: decided after it
        }
    }

    /**
     * Readiness reported for connections a worker owned when the select returned. Their
     * hand-back is often in the inbox already (a lazy KEEPALIVE one above all, see
     * {@link #handoffIdle}), so they are decided after the inbox: dispatched if back in a
     * poller-owned state, else the read interest is dropped until the worker hands back.
     * Anything else (lingering, a parked worker, closed) is reported again by the next select
     * if it still matters.
     */
    private void settleReadyWhileOwned() {
        for (int i = 0; i < readyWhileOwned.size(); i++) {
            Connection c = readyWhileOwned.get(i);
            switch (c.state) {
                case KEEPALIVE, ASYNC_WAITIO, MULTIPLEXED -> claimAndDispatch(c);
                case PROCESSING -> interest(c, 0);
                default -> { }
            }
        }
        readyWhileOwned.clear();
    }

    /** Sets a connection's interest set, keeping {@link Connection#readArmed} in step. Poller thread only. */
    static void interest(Connection c, int ops) {
        c.readArmed = ops == SelectionKey.OP_READ;
        c.key.interestOps(ops);
    }

    /**
     * The claim: state PROCESSING and timer cancelled before the connection leaves this thread.
     * Read interest is left armed: a request/response client sends nothing while its request is
     * served, so the usual re-arm for KEEPALIVE finds the interest unchanged and costs no
     * {@code epoll_ctl}, and its hand-back need not wake this poller ({@link #handoffIdle}). If
     * the socket does turn readable while a worker owns it, {@link #settleReadyWhileOwned} drops
     * the interest then; it is the state, not the interest set, that prevents a second dispatch.
     * Poller thread only.
     */
    void claimAndDispatch(Connection c) {
        // A MULTIPLEXED connection has stream tasks that may hold every slot waiting for it.
        boolean owner = c.state == ConnState.MULTIPLEXED;
        boolean first = !c.dispatchedOnce;
        timers.cancel(c);
        leaveKeepAlive(c);
        detachedService.leave(c);
        c.state = ConnState.PROCESSING;
        c.dispatchedOnce = true;
        if (c.context == null) {
            c.context = contexts.take();
            child.contextAttached();
        }
        if (!owner && c.transport().handshaking()) { // TLS handshake steps have their own admission
            dispatches++;
            child.handshakes().offer(c, first);
            return;
        }
        if (!owner && c.protocol().servesInline() && inline.serve(c)) {
            return;
        }
        dispatches++;
        dispatchedThisRound++;
        if (owner) {
            child.pool().dispatchOwner(c);
        } else {
            child.pool().dispatch(c);
        }
    }

    /** Dispatches a connection the caller already moved to PROCESSING (a TLS queue flush), counting it. */
    void dispatchUnclaimed(Connection c) {
        dispatches++;
        child.pool().dispatch(c);
    }

    private void expireTimers(long now) {
        TimerRing.Timer t;
        while ((t = timers.pollExpired(now)) != null) {
            timersFired++;
            Connection c = (Connection) t;
            switch (c.state) {
                case KEEPALIVE -> {
                    if (!c.dispatchedOnce) {
                        // Silent since the accept: nothing to answer, no worker ever held.
                        child.intervalLog().log(LOG, Level.INFO, "LM2002 connection {0} from {1} closed: nothing"
                                + " received within FirstByteTimeout", c.id(), c.remoteAddress());
                        close(c, CloseReason.TIMEOUT);
                    } else if (c.protocol().closesGracefully()) {
                        c.closeReason = CloseReason.TIMEOUT;
                        requestGracefulClose(c);
                    } else {
                        close(c, CloseReason.TIMEOUT);
                    }
                }
                case MULTIPLEXED, DETACHED -> {
                    c.closeReason = CloseReason.TIMEOUT;
                    requestGracefulClose(c);
                }
                case ASYNC_WAITIO -> headTimedOut(c);
                case PROXY_HEADER -> proxyHeaders.timedOut(c);
                case SUSPENDED, WRITE_COMPLETION -> {
                    interest(c, 0);
                    c.wakeWorker(Wake.TIMEOUT);
                }
                case LINGER -> close(c);
                default -> LOG.log(Level.WARNING, "LM0104 timer fired for {0} in a state that has none", c);
            }
        }
    }

    /**
     * A partial head (or an unfinished TLS handshake) missed its deadline: answer with the
     * protocol's timeout response, then linger. Not on a TLS connection: a poller never runs the
     * TLS engine, and cleartext bytes would corrupt the stream, so there the client just sees
     * the connection close.
     */
    private void headTimedOut(Connection c) {
        c.closeReason = CloseReason.TIMEOUT;
        byte[] answer = c.isSecure() ? null : child.protocol().headTimeoutResponse();
        // INFO, as httpd's mod_reqtimeout: a client's slowness, not a server fault.
        child.intervalLog().log(LOG, Level.INFO,
                "LM2001 connection {0} from {1}: {2} not received within RequestReadTimeout, closed{3}", c.id(),
                c.remoteAddress(), c.transport().handshaking() ? "TLS handshake" : "request head",
                answer != null ? " with 408" : "");
        if (answer != null) {
            try {
                c.channel().write(ByteBuffer.wrap(answer));
            } catch (IOException e) {
                close(c);
                return;
            }
        }
        try {
            lingeringClose.start(c);
        } catch (IOException e) {
            close(c);
        }
    }

    /** Closes a connection this poller owns, deciding why. Poller thread only. */
    void close(Connection c, CloseReason reason) {
        c.closeReason = reason;
        close(c);
    }

    /**
     * Closes a connection this poller owns (or one a worker handed back to be closed) under the
     * reason already decided for it. Poller thread only.
     */
    void close(Connection c) {
        releaseOwnedContext(c);
        finish(c); // cancels the timer
    }

    private void finish(Connection c) {
        timers.cancel(c);
        if (c.key != null) {
            c.key.cancel();
        }
        leaveKeepAlive(c);
        detachedService.leave(c);
        lingeringClose.finishing(c);
        c.end(c.closeReason);
    }

    private void enterKeepAlive(Connection c) {
        c.state = ConnState.KEEPALIVE;
        keepAlive++;
    }

    /** Poller-owned states only: call before a KEEPALIVE connection changes state. */
    private void leaveKeepAlive(Connection c) {
        if (c.state == ConnState.KEEPALIVE) {
            keepAlive--;
        }
    }

    /** Returns a poller-owned connection's context to the recycle list. Poller thread only. */
    void releaseOwnedContext(Connection c) {
        ConnectionContext ctx = c.context;
        if (ctx != null) {
            c.context = null;
            recycle(ctx);
        }
    }

    /** A hand-off that could not be applied: wake a parked worker with an error, or close. */
    private void failWaiterOrClose(Connection c, HandOff op, CloseReason reason) {
        if (op.parksWorker()) {
            c.end(reason);
            c.wakeWorker(Wake.CLOSED);
        } else {
            close(c, reason);
        }
    }

    // ---- accepted connections ----

    /** Sets a new connection up and binds it, round-robin, to one of the child's pollers. */
    void adopt(SocketChannel ch, Connection c) {
        try {
            ch.configureBlocking(false);
            if (child.config().tcpNoDelay()) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0106 could not set up an accepted socket: {0}", e.toString());
            c.closeReason = CloseReason.ERROR;
            finish(c);
            return;
        }
        c.op = HandOff.REGISTER;
        if (c.poller() == this) {
            apply(c);
        } else {
            c.poller().handoff(c);
        }
    }

    // ---- counts (PollerStats) ----

    @Override public int index() { return index; }
    @Override public long wakeups() { return wakeups; }
    @Override public long dispatches() { return dispatches; }
    @Override public long inlineRequests() { return inline.board().requests(); }
    @Override public long timersFired() { return timersFired; }
    @Override public int keepAliveConnections() { return keepAlive; }
    @Override public int lingeringConnections() { return lingeringClose.count(); }
    @Override public int detachedConnections() { return detachedService.count(); }
    @Override public long recycleHits() { return contexts.hits(); }
    @Override public long recycleMisses() { return contexts.misses(); }
    @Override public long recycleDrops() { return contexts.drops(); }
    @Override public int recycleSize() { return contexts.size(); }

    // Classes, not method references: a fresh JVM spins a class per first lambda (~0.5 ms on the
    // start's path); a class from the jar loads in under 0.2 ms, on the preloading thread.

    /** {@link #waker}: wakes the selector from a virtual thread of its own ({@link #wakeIfSleeping}). */
    private final class Waker implements Runnable {
        @Override
        public void run() {
            selector.wakeup();
        }
    }

    /** {@link #readyAction}: {@link #onReady} for each selected key. */
    private final class ReadyAction implements Consumer<SelectionKey> {
        @Override
        public void accept(SelectionKey key) {
            onReady(key);
        }
    }
}
