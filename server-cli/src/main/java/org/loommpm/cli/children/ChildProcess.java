package org.loommpm.cli.children;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import org.loommpm.engine.ChildHandle;
import org.loommpm.engine.ChildPing;
import org.loommpm.engine.ChildState;

/**
 * The supervisor's handle on one child JVM: the process, its control pipe (its stdin) and two
 * threads forwarding its stdout and stderr, line by line, to the supervisor's own (so lines of
 * two children never tear each other: each is printed whole). As a {@link ChildHandle} it is what
 * the engine's pool policy sees: its state and counts come from its scoreboard record as the
 * control loop last read it ({@link #observe}), and drain and stop are commands on the pipe.
 *
 * <p>Threads: the supervisor's control thread owns the handle (starts it, sends commands, reads
 * and sets the flags); the forwarder threads touch only the child's output streams.
 */
final class ChildProcess implements ChildHandle {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final ChildCommand command;
    private final ChildSpec spec;
    /** Its ThreadsPerChild: the free slots it counts for while it starts. */
    private final int slots;
    private Process process;
    /** Its scoreboard record as last read, or null before the JVM claimed it. Control thread. */
    private ScoreboardFile.Child record;
    /** The drain or stop the supervisor sent (FINISHING or IDLE_KILLED), or null. Control thread. */
    private ChildState told;
    /** The last state seen in the scoreboard. Control thread. */
    ProcState seen = ProcState.STARTING;
    /** Whether it was ever READY. Control thread. */
    boolean wasReady;
    /** A replacement was started for it (it reached MaxConnectionsPerChild). Control thread. */
    ChildProcess replacement;
    /** The heartbeat last read from its record, and when (supervisor's nanoTime) it last changed. Control thread. */
    long heartbeat;
    long heartbeatChangedNanos = System.nanoTime();
    /** The supervisor killed it for a missed heartbeat or unanswered liveness pings. Control thread. */
    boolean killedAsStuck;
    /** Its liveness pings ({@link ChildPing}), created with the first. Control thread. */
    ChildPing liveness;

    /**
     * A child to be started with {@link #start}.
     *
     * @param slots its ThreadsPerChild
     */
    ChildProcess(ChildCommand command, ChildSpec spec, int slots) {
        this.command = command;
        this.spec = spec;
        this.slots = slots;
    }

    /**
     * Starts the JVM for its spec and its output forwarders.
     *
     * @throws IOException if the process cannot be started
     */
    @Override
    public void start() throws IOException {
        process = new ProcessBuilder(command.forChild(spec)).start();
        forward(process.getInputStream(), System.out, "loom-child-" + spec.id() + "-out");
        forward(process.getErrorStream(), System.err, "loom-child-" + spec.id() + "-err");
    }

    private static void forward(InputStream in, PrintStream to, String name) {
        Thread.ofPlatform().daemon().name(name).start(new Runnable() {
            @Override
            public void run() {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        to.println(line);
                    }
                } catch (IOException e) {
                    // The child is gone; its exit is reported by the supervisor.
                }
            }
        });
    }

    /** Its record as just read by the control loop (one that this JVM has claimed). */
    void observe(ScoreboardFile.Child r) {
        record = r;
    }

    ChildSpec spec() {
        return spec;
    }

    @Override
    public int id() {
        return spec.id();
    }

    @Override
    public int generation() {
        return spec.generation();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Whether a drain or stop was sent (its exit is expected). */
    boolean told() {
        return told != null;
    }

    /** Retired by the dynamic policy: not replaced. */
    boolean idleKilled() {
        return told == ChildState.IDLE_KILLED;
    }

    /**
     * The supervisor's view: what it told the child, else FINISHING once a replacement was started
     * for it (retiring at MaxConnectionsPerChild: still serving until the replacement is ready, as
     * an in-JVM child's replacement starts while it finishes), else what its record says.
     */
    @Override
    public ChildState state() {
        if (told != null) {
            return told;
        }
        return replacement != null ? ChildState.FINISHING : seen.lifecycle();
    }

    /** All its slots while it starts, its free ones while it serves, none once it is leaving. */
    @Override
    public int freeSlots() {
        if (record == null || record.state() == ProcState.STARTING) {
            return slots;
        }
        return record.state() == ProcState.READY ? record.counts().idle() : 0;
    }

    @Override
    public int openConnections() {
        return record == null ? 0 : record.counts().open();
    }

    /** Sends {@code drain}: the child closes its listeners, finishes its connections and exits. Once. */
    @Override
    public void drain(ChildState cause, String reason) {
        if (told == null) {
            told = cause;
            send(Control.drain(cause == ChildState.IDLE_KILLED, reason));
        }
    }

    /** Sends {@code stop} (even after a drain: it cuts the drain short). */
    @Override
    public void stop() {
        if (told == null) {
            told = ChildState.FINISHING;
        }
        send(Control.STOP);
    }

    /** Sends liveness ping {@code number} down its control pipe. */
    void ping(int number) {
        send(Control.ping(number));
    }

    /** Sends one command line; a closed pipe (the child is exiting) is logged at debug and ignored. */
    private void send(Control c) {
        try {
            OutputStream out = process.getOutputStream();
            out.write((c.encode() + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM1513 could not send \"{0}\" to child {1} (pid {2}): {3}", c.encode(), id(), pid(),
                    e.getMessage());
        }
    }

    /** Closes its stdin: the child stops gracefully as if told {@code stop}. */
    void closeControl() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM1526 closing the control pipe of child {0}: {1}", id(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "child " + id() + " (pid " + pid() + ", generation " + generation() + ")";
    }
}
