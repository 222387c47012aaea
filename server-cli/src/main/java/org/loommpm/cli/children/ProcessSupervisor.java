package org.loommpm.cli.children;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.loommpm.cli.logging.AsyncLogWriter;
import org.loommpm.cli.logging.LogSettings;
import org.loommpm.cli.logging.LogTargets;
import org.loommpm.cli.signals.PidFile;
import org.loommpm.cli.signals.SignalQueue;
import org.loommpm.config.ChildPolicy;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.Backoff;
import org.loommpm.engine.ChildHandle;
import org.loommpm.engine.ChildPing;
import org.loommpm.engine.ChildState;
import org.loommpm.engine.DynamicPool;

/**
 * {@code ChildProcesses On}: the jar's process becomes a supervisor of child JVMs (httpd's prefork
 * parent). It holds no client connection and no listener: each child binds the {@code Listen}
 * addresses itself with SO_REUSEPORT, serves with its own engine, and reports through the
 * {@link ScoreboardFile}; the supervisor starts, replaces and retires children, and talks to them
 * over their stdin ({@link Control}).
 *
 * <ul>
 *   <li>Start: StartServers children of generation 1; the supervisor prints that it listens once
 *       one is ready. If none becomes ready after {@value Backoff#START_ATTEMPTS} attempts (with back-off)
 *       it gives up and exits 1.</li>
 *   <li>A child that exits unexpectedly is replaced one-for-one (back-off when it died before it
 *       was ready); its exit status or signal is logged (LM1502).</li>
 *   <li>A child that reached MaxConnectionsPerChild (state RETIRING) keeps serving until its
 *       replacement is ready, then is told to drain.</li>
 *   <li>{@code SIGHUP}: the configuration is read again (invalid: LM1301, nothing changes) and a new
 *       generation started from the jar on disk; once its children are ready the older
 *       generations are told to drain (LM1507).</li>
 *   <li>{@code ChildPolicy dynamic}: once per maintenance interval the free worker slots of the
 *       current generation, read from the scoreboard, drive {@link DynamicPool}: children are
 *       started 1, 2, 4 ... at a time, or one is told to drain as idle-killed (not replaced).</li>
 *   <li>{@code SIGTERM}/{@code SIGINT}: every child is told to stop, those still running after
 *       GracefulShutdownTimeout (plus a margin for their own forced close) are killed, exit 0.</li>
 * </ul>
 *
 * <p><b>Shared with the engine's {@code Supervisor}.</b> Each {@link ChildProcess} is a
 * {@link ChildHandle} with the engine's lifecycle ({@link ChildState}); the dynamic policy's pass
 * ({@link DynamicPool#adjust}) and the start-up back-off ({@link Backoff}) are the engine's, not
 * copies. This stays a class of its own rather than a mode of {@code Supervisor} because the
 * rest differs in kind, not in detail: it binds no listener (each child binds with SO_REUSEPORT),
 * a child's start and readiness are asynchronous (a JVM that dies during start-up is a failed
 * start, seen at its exit), a new generation serves only once every new child is ready (the
 * in-JVM one starts synchronously), a child asks for its replacement through the scoreboard
 * instead of a method call, and liveness is a process heartbeat, not the pollers'. One class
 * holding both would be two classes behind a flag.
 *
 * <p>Threads: everything runs on the thread calling {@link #run} (the control thread), fed by a
 * queue: signals and process exits are posted to it, and it looks at the scoreboard every
 * {@value #TICK_MS} ms. No other thread touches the children list.
 */
public final class ProcessSupervisor {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");
    static final long TICK_MS = 50;
    /** Added to GracefulShutdownTimeout before a stop kills children: they close by force themselves first. */
    private static final long STOP_MARGIN_MILLIS = 3_000;

    /** Re-reads the configuration the process was started with. */
    @FunctionalInterface
    public interface ConfigSource {
        /**
         * @return what the supervisor takes of it
         * @throws Unreadable when it no longer reads: the supervisor keeps the previous one
         */
        SupervisorConfig load() throws Unreadable;

        /** The configuration does not read; the message is the report (file, line, problem). */
        final class Unreadable extends Exception {
            private static final long serialVersionUID = 1L;

            /** @param report what is wrong, and where */
            public Unreadable(String report) {
                super(report, null, false, false);
            }
        }
    }

    /** A generation of children being started, and how its start-up goes. */
    private static final class Generation {
        final int number;
        final SupervisorConfig config;
        /** Children that died before they were ready, since the last one that became ready. */
        int startFailures;
        boolean everReady;

        Generation(int number, SupervisorConfig config) {
            this.number = number;
            this.config = config;
        }
    }

    /** A child to start later (back-off after a start-up death). */
    private record DueStart(Generation generation, long dueNanos) {
    }

    private final ConfigSource source;
    private final ChildCommand command;
    private final String version;
    private final LogTargets logs = new LogTargets();
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final List<ChildProcess> children = new ArrayList<>();
    private final List<DueStart> due = new ArrayList<>();
    private ScoreboardFile scoreboard;
    /** The {@code PidFile}, or null: written at start, removed after the stop. Control thread. */
    private PidFile pid;
    private ChildProcess[] byRecord;
    private int childIds;
    /** The generation serving (committed). */
    private Generation current;
    /** A generation started by SIGHUP (or at start-up) that is not ready yet, or null. */
    private Generation pending;
    private boolean stopRequested;
    /** {@code ChildPolicy dynamic}'s state over the current generation. */
    private final DynamicPool dynamic = new DynamicPool();
    private long nextMaintenance;
    /** When the next liveness ping is due. Control thread. */
    private long nextPing;
    /** Set when the first generation cannot start: the exit status. */
    private int failed = -1;

    /**
     * @param source re-reads the configuration on {@code SIGHUP}
     * @param command how to start a child JVM
     * @param version this build's, for the start-up banner
     */
    public ProcessSupervisor(ConfigSource source, ChildCommand command, String version) {
        this.source = source;
        this.command = command;
        this.version = version;
    }

    /**
     * Runs the supervisor until a stop.
     *
     * @return the exit status: 0 after a graceful stop, 1 if no child could start
     */
    public int run(SupervisorConfig initial, SignalQueue signals, PidFile pid) throws InterruptedException {
        this.pid = pid;
        try {
            logs.apply(supervisorLogs(initial.logs()), false, new ArrayList<>());
            check(initial.engine());
            removeStaleScoreboards(Path.of(System.getProperty("java.io.tmpdir")));
            Path file = Files.createTempFile("loom-mpm-" + ProcessHandle.current().pid() + "-", ".scoreboard");
            int records = 2 * Math.max(initial.engine().serverLimit(), initial.engine().startServers());
            scoreboard = ScoreboardFile.create(file, records, Math.min(4096, initial.engine().threadsPerChild()),
                    ProcessHandle.current().pid());
            byRecord = new ChildProcess[records];
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "LM1510 cannot run child processes: {0}", e.getMessage());
            logs.close();
            return 1;
        }
        if (pid != null) {
            try {
                pid.write(); // this process is the one -k signals; its children bind with SO_REUSEPORT
            } catch (IOException e) {
                LOG.log(Level.ERROR, "LM1902 could not write PidFile {0}: {1}", pid.path(), e.toString());
                try {
                    Files.deleteIfExists(scoreboard.path());
                } catch (IOException ignored) {
                    // a stale scoreboard is removed by the next supervisor's start (LM1520)
                }
                logs.close();
                return 1;
            }
        }
        Thread.ofPlatform().daemon().name("loom-signals").start(new Runnable() {
            @Override
            public void run() {
                forwardSignals(signals);
            }
        });
        pending = new Generation(1, initial);
        scoreboard.generation(1);
        startGeneration(pending);
        long nextTick = 0;
        while (!stopRequested && failed < 0) {
            Runnable r = events.poll(TICK_MS, TimeUnit.MILLISECONDS);
            if (r != null) {
                r.run();
            }
            long now = System.nanoTime();
            if (now - nextTick >= 0) {
                tick(now);
                nextTick = now + TICK_MS * 1_000_000L;
            }
        }
        if (failed >= 0) {
            stopAll(initial);
            return failed;
        }
        stopAll(current != null ? current.config : initial);
        return 0;
    }

    /**
     * Deletes the scoreboard files of supervisors that are gone (killed before they could delete
     * their own): {@code loom-mpm-PID-*.scoreboard} whose PID runs no process.
     */
    static void removeStaleScoreboards(Path tmp) {
        try (var files = Files.newDirectoryStream(tmp, "loom-mpm-*.scoreboard")) {
            for (Path f : files) {
                String[] parts = f.getFileName().toString().split("-");
                try {
                    long pid = Long.parseLong(parts[2]);
                    if (ProcessHandle.of(pid).isEmpty()) {
                        Files.deleteIfExists(f);
                        LOG.log(Level.DEBUG, "LM1520 removed the scoreboard of a supervisor that is gone: {0}", f);
                    }
                } catch (NumberFormatException | ArrayIndexOutOfBoundsException | IOException e) {
                    LOG.log(Level.DEBUG, "LM1521 left {0} alone: {1}", f, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM1522 could not look for stale scoreboards in {0}: {1}", tmp, e.toString());
        }
    }

    /** The supervisor writes only the error log: the children write the access logs themselves. */
    private static LogSettings supervisorLogs(LogSettings logs) {
        return new LogSettings(logs.errorLog(), logs.levels(), List.of());
    }

    /**
     * What child processes need of the platform and the configuration: SO_REUSEPORT, and fixed
     * ports (port 0 would give each child a different one).
     */
    static void check(ServerConfig engine) throws IOException {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            if (!probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                throw new IOException("SO_REUSEPORT is not supported on this platform (" + System.getProperty("os.name")
                        + "), which ChildProcesses On needs: set ChildProcesses Off");
            }
        }
        for (InetSocketAddress a : engine.listen()) {
            if (a.getPort() == 0) {
                throw new IOException("Listen " + a + ": port 0 cannot be shared by child processes (each would "
                        + "get its own port); name a port");
            }
        }
    }

    private void forwardSignals(SignalQueue signals) {
        try {
            for (;;) {
                SignalQueue.Event e = signals.take();
                events.add(e == SignalQueue.Event.STOP ? new Runnable() {
                    @Override
                    public void run() {
                        stopRequested = true;
                    }
                } : new Runnable() {
                    @Override
                    public void run() {
                        restart();
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- starting children ----

    private void startGeneration(Generation g) {
        for (int i = 0; i < g.config.engine().startServers(); i++) {
            startChild(g);
        }
    }

    /** Starts one child of {@code g} now; returns it, or null if it could not be started (retried later). */
    private ChildProcess startChild(Generation g) {
        int record = freeRecord();
        if (record < 0) {
            LOG.log(Level.WARNING, "LM1512 no free scoreboard record for a new child of generation {0} ({1} "
                    + "processes still running): start deferred", g.number, children.size());
            due.add(new DueStart(g, System.nanoTime() + Backoff.nanos(1)));
            return null;
        }
        scoreboard.clear(record);
        ChildSpec spec = new ChildSpec(record, ++childIds, g.number, scoreboard.path());
        ChildProcess c = new ChildProcess(command, spec, g.config.engine().threadsPerChild());
        try {
            c.start();
        } catch (IOException e) {
            LOG.log(Level.ERROR, "LM1525 could not start a child process of generation {0}: {1}", g.number,
                    e.getMessage());
            startFailed(g);
            return null;
        }
        byRecord[record] = c;
        children.add(c);
        c.process().onExit().thenRun(new Runnable() {
            @Override
            public void run() {
                events.add(new Runnable() {
                    @Override
                    public void run() {
                        exited(c);
                    }
                });
            }
        });
        LOG.log(Level.DEBUG, "LM1503 started {0}", c);
        return c;
    }

    private int freeRecord() {
        for (int i = 0; i < byRecord.length; i++) {
            if (byRecord[i] == null) {
                return i;
            }
        }
        return -1;
    }

    /** A child of {@code g} died before it was ready (or could not be started): retry with back-off, or give up. */
    private void startFailed(Generation g) {
        g.startFailures++;
        if (!g.everReady && g.startFailures >= Backoff.START_ATTEMPTS * g.config.engine().startServers()) {
            giveUp(g);
            return;
        }
        long wait = Backoff.nanos(g.startFailures);
        LOG.log(Level.WARNING, "LM1505 a child process of generation {0} died during start-up ({1} in a row); "
                + "next attempt in {2} ms", g.number, g.startFailures, wait / 1_000_000);
        due.add(new DueStart(g, System.nanoTime() + wait));
    }

    /** Not one child of {@code g} became ready. */
    private void giveUp(Generation g) {
        if (g == pending && current == null) {
            LOG.log(Level.ERROR, "LM1506 no child process of generation {0} became ready after {1} attempts: "
                    + "giving up (the children's own error lines above say why)", g.number, g.startFailures);
            pending = null;
            failed = 1;
            return;
        }
        LOG.log(Level.ERROR, "LM1506 no child process of generation {0} became ready after {1} attempts: the "
                + "graceful restart failed, still serving generation {2}", g.number, g.startFailures,
                current.number);
        for (ChildProcess c : children) {
            if (c.generation() == g.number) {
                c.stop();
            }
        }
        due.removeIf(d -> d.generation() == g);
        pending = null;
        scoreboard.generation(current.number);
    }

    // ---- the control loop ----

    private void tick(long now) {
        for (ChildProcess c : List.copyOf(children)) {
            ScoreboardFile.Child r = scoreboard.read(c.spec().record());
            if (r == null || r.pid() != c.pid()) {
                continue; // not claimed yet by the JVM starting on it
            }
            c.observe(r);
            ProcState s = r.state();
            if (s != c.seen) {
                c.seen = s;
                if (s.serving() && !c.wasReady) {
                    c.wasReady = true;
                    Generation g = generationOf(c);
                    if (g != null) {
                        g.everReady = true;
                        g.startFailures = 0;
                    }
                    LOG.log(Level.DEBUG, "LM1504 {0} is ready", c);
                }
            }
            if (s == ProcState.RETIRING && !c.told()) {
                retireForMaxConnections(c);
            }
            checkHeartbeat(c, r, now);
        }
        for (DueStart d : List.copyOf(due)) {
            if (now - d.dueNanos() >= 0) {
                due.remove(d);
                if (d.generation() == pending || d.generation() == current) {
                    startChild(d.generation());
                }
            }
        }
        if (pending != null && pending.everReady && noneStarting(pending)) {
            commit(pending);
        }
        long pingInterval = current != null ? current.config.engine().childPingInterval().toNanos() : 0;
        if (pingInterval > 0 && now - nextPing >= 0) {
            nextPing = now + pingInterval;
            pingChildren(current.config.engine().childPingMisses());
        }
        if (current != null && pending == null && now - nextMaintenance >= 0) {
            nextMaintenance = now + current.config.engine().maintenanceInterval().toNanos();
            if (current.config.engine().childPolicy() == ChildPolicy.DYNAMIC) {
                adjustPool(current);
            }
        }
    }

    /**
     * {@code ChildPolicy dynamic} over processes: the engine's pass ({@link DynamicPool#adjust})
     * over the handles, whose counts come from the scoreboard as this tick read it; a child waiting
     * for a retried start counts all its slots. Starts what it decides.
     */
    private void adjustPool(Generation g) {
        int waiting = 0;
        for (DueStart d : due) {
            if (d.generation() == g) {
                waiting++;
            }
        }
        DynamicPool.Pass pass = dynamic.adjust(children, g.number, waiting, g.config.engine());
        if (pass.retired() != null) {
            LOG.log(Level.DEBUG, "LM1524 {0} free worker slots, more than MaxSpareThreads {1}: retiring {2}",
                    pass.idle(), g.config.engine().maxSpareThreads(), pass.retired());
        }
        if (pass.spawn() > 0) {
            LOG.log(Level.DEBUG, "LM1518 {0} free worker slots, fewer than MinSpareThreads {1}: starting {2} child "
                    + "process(es) ({3} running)", pass.idle(), g.config.engine().minSpareThreads(), pass.spawn(),
                    pass.running());
            for (int i = 0; i < pass.spawn(); i++) {
                startChild(g);
            }
        }
    }

    /** The generation of {@code c} if it is the current or the pending one, else null (an older one). */
    private Generation generationOf(ChildProcess c) {
        return pending != null && c.generation() == pending.number ? pending
                : current != null && c.generation() == current.number ? current : null;
    }

    private boolean noneStarting(Generation g) {
        for (ChildProcess c : children) {
            if (c.generation() == g.number && !c.wasReady) {
                return false;
            }
        }
        return true;
    }

    /** {@code g}'s children are all ready: it serves; older generations drain. */
    private void commit(Generation g) {
        Generation old = current;
        current = g;
        pending = null;
        dynamic.reset();
        scoreboard.generation(g.number);
        if (old == null) {
            LOG.log(Level.INFO, "LM1501 loom-mpm started: {0} child process(es) of generation 1, each {1} worker "
                    + "slots, listening on {2}; scoreboard {3}", g.config.engine().startServers(),
                    g.config.engine().threadsPerChild(), g.config.engine().listen(), scoreboard.path());
            banner(System.out, g.config);
            return;
        }
        int drained = 0;
        for (ChildProcess c : children) {
            if (c.generation() < g.number && !c.told()) {
                c.drain(ChildState.FINISHING, "graceful restart to generation " + g.number);
                drained++;
            }
        }
        LOG.log(Level.INFO, "LM1507 graceful restart: generation {0} ready ({1} child process(es)); {2} child "
                + "process(es) of older generations draining", g.number, g.config.engine().startServers(), drained);
    }

    /**
     * Liveness across processes (spamd's ping): a child's publisher thread refreshes its heartbeat
     * every 50 ms; a child whose heartbeat has not changed for ChildWatchdogTimeout (measured on
     * the supervisor's monotonic clock, so a wall-clock step cannot trigger it) is wedged as a whole
     * JVM (stopped, or stalled in a pause that long): it is killed and replaced.
     */
    private void checkHeartbeat(ChildProcess c, ScoreboardFile.Child r, long now) {
        if (r.heartbeatMillis() != c.heartbeat) {
            c.heartbeat = r.heartbeatMillis();
            c.heartbeatChangedNanos = now;
            return;
        }
        long timeout = (current != null ? current.config : pending.config).engine().childWatchdogTimeout().toNanos();
        if (timeout > 0 && c.wasReady && !c.killedAsStuck && now - c.heartbeatChangedNanos > timeout) {
            c.killedAsStuck = true;
            LOG.log(Level.ERROR, "LM1519 {0} has not published a heartbeat for {1} ms (ChildWatchdogTimeout): "
                    + "killing it; a replacement starts", c, (now - c.heartbeatChangedNanos) / 1_000_000);
            c.process().destroyForcibly();
        }
    }

    /**
     * spamd's ping across processes: each ready child not told to drain gets {@code ping N} down
     * its control pipe; its engine runs it as a worker task and the answer comes back through its
     * scoreboard record. A child still owing the last ping counts a miss; at ChildPingMisses in a
     * row its workers are stuck (its publisher's heartbeat, a thread of its own, may well be
     * fine): it is killed and, like any child that dies, replaced (LM2011).
     */
    private void pingChildren(int maxMisses) {
        for (ChildProcess c : children) {
            if (!c.wasReady || c.told() || c.killedAsStuck || !c.seen.serving()) {
                continue;
            }
            if (c.liveness == null) {
                c.liveness = new ChildPing(maxMisses);
            }
            if (c.liveness.overdue(scoreboard.pingAnswered(c.spec().record()))) {
                c.killedAsStuck = true;
                LOG.log(Level.ERROR, "LM2011 {0} has not answered {1} liveness pings in a row (ChildPingInterval): "
                        + "its workers are stuck; killing it, a replacement starts", c, c.liveness.missed());
                c.process().destroyForcibly();
                continue;
            }
            c.ping(c.liveness.next());
        }
    }

    /** MaxConnectionsPerChild: start the replacement first, drain the child once the replacement serves. */
    private void retireForMaxConnections(ChildProcess c) {
        if (c.replacement == null) {
            LOG.log(Level.INFO, "LM1511 {0} reached MaxConnectionsPerChild: starting its replacement", c);
            Generation g = c.generation() == (current != null ? current.number : -1) ? current : null;
            c.replacement = g != null ? startChild(g) : null;
            if (c.replacement == null) {
                c.drain(ChildState.FINISHING, "MaxConnectionsPerChild reached");
            }
            return;
        }
        if (c.replacement.wasReady || !c.replacement.process().isAlive()) {
            c.drain(ChildState.FINISHING, "MaxConnectionsPerChild reached, replacement ready");
        }
    }

    /** A child process ended: log it, free its record, replace it if it should be. */
    private void exited(ChildProcess c) {
        children.remove(c);
        byRecord[c.spec().record()] = null;
        scoreboard.retire(c.spec().record());
        int status = c.process().exitValue();
        // A JVM killed by a signal shows as 128 + the signal number.
        String how = status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                + signalName(status - 128) : "exited with status " + status;
        boolean expected = c.told() || stopRequested || c.killedAsStuck;
        LOG.log(expected && status == 0 ? Level.INFO : Level.WARNING, "LM1502 {0} {1}{2}", c, how,
                c.killedAsStuck ? " (by the supervisor: no heartbeat, or liveness pings unanswered)" : expected ? ""
                        : c.wasReady ? " unexpectedly" : " during start-up");
        if (stopRequested || c.idleKilled() || c.replacement != null) {
            return;
        }
        Generation g = generationOf(c);
        if (g == null || (c.told() && c.wasReady && !c.killedAsStuck)) {
            return; // an older generation, or drained on purpose
        }
        if (!c.wasReady) {
            startFailed(g);
        } else {
            startChild(g);
        }
    }

    private static String signalName(int sig) {
        return switch (sig) {
            case 9 -> " (KILL)";
            case 15 -> " (TERM)";
            case 6 -> " (ABRT)";
            case 11 -> " (SEGV)";
            case 2 -> " (INT)";
            case 1 -> " (HUP)";
            default -> "";
        };
    }

    // ---- signals ----

    private void restart() {
        SupervisorConfig next;
        try {
            next = source.load();
        } catch (ConfigSource.Unreadable e) {
            LOG.log(Level.ERROR, "LM1301 graceful restart refused, still serving generation {0} with the previous "
                    + "configuration: {1}", current != null ? current.number : 0, e.getMessage());
            return;
        }
        if (!next.childProcesses()) {
            LOG.log(Level.WARNING, "LM1517 ChildProcesses Off takes effect when the process is restarted: the new "
                    + "generation runs as child processes too");
        }
        try {
            check(next.engine());
            logs.apply(supervisorLogs(next.logs()), true, new ArrayList<AsyncLogWriter>());
        } catch (IOException e) {
            LOG.log(Level.ERROR, "LM1302 graceful restart failed, still serving generation {0}: {1}",
                    current != null ? current.number : 0, e.getMessage());
            return;
        }
        int number = Math.max(current != null ? current.number : 0, pending != null ? pending.number : 0) + 1;
        if (pending != null) {
            // A newer configuration supersedes the one still starting: its children drain with the old ones.
            due.removeIf(d -> d.generation() == pending);
        }
        pending = new Generation(number, next);
        LOG.log(Level.INFO, "LM1303 configuration re-read from {0}; starting generation {1} ({2} child "
                + "process(es))", next.description(), number, next.engine().startServers());
        startGeneration(pending);
    }

    /** Graceful stop of every child within GracefulShutdownTimeout, then by force. Control thread. */
    private void stopAll(SupervisorConfig config) {
        long timeout = config.engine().gracefulShutdownTimeout().toMillis();
        LOG.log(Level.INFO, "LM1508 stopping {0} child process(es) gracefully (at most {1} s)", children.size(),
                timeout / 1000);
        stopRequested = true;
        for (ChildProcess c : children) {
            c.stop();
            c.closeControl();
        }
        // Each child keeps accepting for GracefulStopDelay (readiness 503) before it finishes.
        long delay = config.engine().gracefulStopDelay().toMillis();
        long end = System.nanoTime() + (delay + timeout + STOP_MARGIN_MILLIS) * 1_000_000L;
        for (ChildProcess c : List.copyOf(children)) {
            waitFor(c, end);
        }
        List<ChildProcess> left = new ArrayList<>();
        for (ChildProcess c : children) {
            if (c.process().isAlive()) {
                left.add(c);
            }
        }
        if (!left.isEmpty()) {
            LOG.log(Level.WARNING, "LM1509 {0} child process(es) still running after GracefulShutdownTimeout: "
                    + "killing {1}", left.size(), left);
            for (ChildProcess c : left) {
                c.process().destroyForcibly();
            }
            long killEnd = System.nanoTime() + 5_000_000_000L;
            for (ChildProcess c : left) {
                waitFor(c, killEnd);
            }
        }
        Runnable r;
        while ((r = events.poll()) != null) {
            r.run(); // the exits, logged
        }
        for (ChildProcess c : List.copyOf(children)) {
            exited(c);
        }
        try {
            Files.deleteIfExists(scoreboard.path());
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM1523 could not delete the scoreboard file: {0}", e.getMessage());
        }
        if (pid != null) {
            pid.remove();
        }
        LOG.log(Level.INFO, "LM0009 loom-mpm stopped");
        logs.close();
    }

    private static void waitFor(ChildProcess c, long endNanos) {
        long left = endNanos - System.nanoTime();
        try {
            if (left > 0) {
                c.process().waitFor(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void banner(PrintStream out, SupervisorConfig config) {
        StringBuilder sb = new StringBuilder();
        for (InetSocketAddress a : config.engine().listen()) {
            String host = a.getAddress() == null || a.getAddress().isAnyLocalAddress() ? "localhost"
                    : a.getAddress() instanceof java.net.Inet6Address ? "[" + a.getHostString() + "]" : a.getHostString();
            sb.append("loom-mpm ").append(version).append(" listening on http://").append(host).append(':')
                    .append(a.getPort()).append("/\n");
        }
        sb.append("config: ").append(config.description()).append('\n')
                .append("  ChildProcesses On: ").append(config.engine().startServers())
                .append(" child JVM(s) (supervisor pid ").append(ProcessHandle.current().pid()).append("), ThreadsPerChild ")
                .append(config.engine().threadsPerChild()).append('\n');
        out.print(sb);
        out.flush();
    }
}
