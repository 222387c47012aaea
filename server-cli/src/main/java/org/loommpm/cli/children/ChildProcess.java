package org.loommpm.cli.children;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The supervisor's handle on one child JVM: the process, its control pipe (its stdin) and two
 * threads forwarding its stdout and stderr, line by line, to the supervisor's own (so lines of
 * two children never tear each other: each is printed whole).
 *
 * <p>Threads: the supervisor's control thread owns the handle (starts it, sends commands, reads
 * and sets the flags); the forwarder threads touch only the child's output streams.
 */
final class ChildProcess {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final ChildSpec spec;
    private final Process process;
    /** The last state seen in the scoreboard. Control thread. */
    ProcState seen = ProcState.STARTING;
    /** Whether it was ever READY. Control thread. */
    boolean wasReady;
    /** A drain or stop was sent (its exit is expected). Control thread. */
    boolean told;
    /** Retired by the dynamic policy: not replaced. Control thread. */
    boolean idleKilled;
    /** A replacement was started for it (it reached MaxConnectionsPerChild). Control thread. */
    ChildProcess replacement;
    /** The heartbeat last read from its record, and when (supervisor's nanoTime) it last changed. Control thread. */
    long heartbeat;
    long heartbeatChangedNanos = System.nanoTime();
    /** The supervisor killed it for a missed heartbeat. Control thread. */
    boolean killedAsStuck;

    private ChildProcess(ChildSpec spec, Process process) {
        this.spec = spec;
        this.process = process;
    }

    /**
     * Starts the JVM for {@code spec} and its output forwarders.
     *
     * @throws IOException if the process cannot be started
     */
    static ChildProcess start(ChildCommand command, ChildSpec spec) throws IOException {
        List<String> cmd = command.forChild(spec);
        Process p = new ProcessBuilder(cmd).start();
        ChildProcess c = new ChildProcess(spec, p);
        forward(p.getInputStream(), System.out, "loom-child-" + spec.id() + "-out");
        forward(p.getErrorStream(), System.err, "loom-child-" + spec.id() + "-err");
        return c;
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

    ChildSpec spec() {
        return spec;
    }

    int id() {
        return spec.id();
    }

    int generation() {
        return spec.generation();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /**
     * Sends one command line; a closed pipe (the child is exiting) is logged at debug and ignored.
     * Control thread.
     */
    void send(Control c) {
        told = true;
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
