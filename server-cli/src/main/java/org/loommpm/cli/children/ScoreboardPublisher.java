package org.loommpm.cli.children;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.Scoreboard;
import org.loommpm.spi.CloseReason;

/**
 * Copies a child process's engine counts into its record of the {@link ScoreboardFile} every
 * {@value #PERIOD_MS} ms (and at once on a state change), from one platform thread: the record's
 * only writer in this process. Nothing runs on the request path: the engine keeps these counts
 * anyway, this thread reads them.
 *
 * <p>It also applies MaxConnectionsPerChild for the process: once the engine has accepted that
 * many connections the state goes READY to RETIRING, and the supervisor replaces the process
 * (the engine inside runs without the limit, so it never replaces its one child itself).
 */
public final class ScoreboardPublisher {
    static final long PERIOD_MS = 50;

    private final ScoreboardFile file;
    private final int record;
    private final EngineStats engine;
    private final long maxConnections;
    /** The state to publish. Contract: any thread sets it (then unparks the thread); the thread publishes it. */
    private final AtomicReference<ProcState> state = new AtomicReference<>(ProcState.STARTING);
    private volatile boolean stopped;
    private Thread thread;
    /**
     * The last liveness ping the engine answered: written by the worker task that ran it
     * ({@link #pingAnswered(int)}), carried into the record by this thread.
     */
    private volatile int pingAnswered;

    /**
     * @param maxConnections MaxConnectionsPerChild (0: unlimited)
     */
    public ScoreboardPublisher(ScoreboardFile file, int record, EngineStats engine, long maxConnections) {
        this.file = file;
        this.record = record;
        this.engine = engine;
        this.maxConnections = maxConnections;
    }

    /** Starts publishing; the record is shown READY from the first publication on. */
    public ScoreboardPublisher start() {
        state.compareAndSet(ProcState.STARTING, ProcState.READY);
        thread = Thread.ofPlatform().daemon().name("loom-scoreboard").start(new Runnable() {
            @Override
            public void run() {
                loop();
            }
        });
        return this;
    }

    /** Moves to {@code s} (FINISHING, IDLE_KILLED, STOPPING) and publishes it at once. */
    public void state(ProcState s) {
        state.set(s);
        LockSupport.unpark(thread);
    }

    /** The state published last (or about to be). */
    public ProcState state() {
        return state.get();
    }

    /**
     * The engine ran liveness ping {@code n} on one of its worker slots: published with the next
     * counts (within {@value #PERIOD_MS} ms). Called by that worker task.
     */
    public void pingAnswered(int n) {
        pingAnswered = n;
    }

    /** Publishes one last time and ends the thread. */
    public void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        ProcState written = null;
        while (true) {
            publish();
            ProcState s = state.get();
            if (s != written) {
                file.state(record, s);
                written = s;
            }
            if (stopped) {
                return;
            }
            LockSupport.parkNanos(this, PERIOD_MS * 1_000_000L);
        }
    }

    private void publish() {
        boolean accepting = false;
        int open = 0;
        int active = 0;
        int idle = 0;
        int keepAlive = 0;
        int lingering = 0;
        int pending = 0;
        ChildStats serving = null;
        for (ChildStats c : engine.children()) {
            accepting |= c.accepting();
            open += c.openConnections();
            active += c.activeWorkers();
            keepAlive += c.keepAliveConnections();
            lingering += c.lingeringConnections();
            pending += c.pendingWorkers();
            if (!c.draining()) {
                idle += c.idleWorkers();
                serving = c;
            }
        }
        long[] closed = new long[ScoreboardFile.REASONS];
        for (CloseReason r : CloseReason.values()) {
            closed[r.ordinal()] = engine.connectionsClosed(r);
        }
        long accepted = engine.connectionsAccepted();
        long nowMillis = System.currentTimeMillis();
        file.publish(record, new ScoreboardFile.Counts(accepting, open, active, idle, accepted, engine.requests(),
                engine.bytesSent(), closed, keepAlive, lingering, pending), nowMillis);
        file.pingAnswered(record, pingAnswered);
        if (serving != null) {
            publishSlots(serving.scoreboard(), nowMillis, System.nanoTime());
        }
        if (maxConnections > 0 && accepted >= maxConnections) {
            state.compareAndSet(ProcState.READY, ProcState.RETIRING);
        }
    }

    private void publishSlots(Scoreboard sb, long nowMillis, long nowNanos) {
        int n = Math.min(sb.size(), file.slotsPerChild());
        for (int s = 0; s < n; s++) {
            Scoreboard.CurrentRequest cur = sb.current(s);
            String line = cur == null ? null : cur.request().method() + " " + cur.request().path();
            // nanoTime has an origin per process: the file carries wall-clock time.
            long started = cur == null ? 0 : nowMillis - (nowNanos - cur.startNanos()) / 1_000_000;
            file.slot(record, s, sb.state(s), sb.accesses(s), sb.bytesSent(s), started, line);
        }
    }
}
