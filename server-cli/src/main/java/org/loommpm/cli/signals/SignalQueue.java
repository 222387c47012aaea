package org.loommpm.cli.signals;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns {@code SIGTERM}, {@code SIGINT}, {@code SIGWINCH} (graceful stops) and {@code SIGHUP},
 * {@code SIGUSR1} (graceful restarts) into events one control thread takes in order, so a
 * restart and a stop never run at once and neither runs on the JVM's signal thread. Handling
 * TERM and INT here (instead of a shutdown hook) means the JVM does not begin exiting while the
 * graceful stop is still logging: the control thread stops the server, flushes the logs, then
 * exits with status 0. {@code sun.misc.Signal} (module {@code jdk.unsupported}) is the only way
 * the JDK offers to handle HUP, USR1 and WINCH; javac warns about it, and that is expected.
 *
 * <p>{@code SIGWINCH} is httpd's graceful stop, but a terminal also sends it to its foreground
 * processes whenever its window is resized: it is handled only when none of the standard streams
 * is a terminal (a service, a container without {@code -t}, {@code nohup}), else LM1905 says so
 * and it keeps its default (ignored). With {@code -Xrs} the JVM refuses
 * HUP, INT and TERM (LM1401 says so; TERM then ends the JVM at once); USR1 and WINCH still work.
 *
 * <p>The JVM also leaves HUP, INT and TERM ignored when they were ignored as it started: under
 * {@code nohup} HUP is, so it reloads nothing. LM1402 says so for HUP and TERM (an ignored INT
 * is what a shell asks of a background job, and is left alone); SIGUSR1 still restarts.
 */
public final class SignalQueue {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli.signals");

    /** What a signal asks for. */
    public enum Event {
        /** {@code SIGTERM}, {@code SIGINT} or {@code SIGWINCH}: graceful stop. */
        STOP,
        /** {@code SIGHUP} or {@code SIGUSR1}: re-read the configuration, graceful restart. */
        RESTART
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** The signals whose handler the JVM did not install because they were ignored at its start. */
    private final List<String> ignoredAtStart = new ArrayList<>(2);

    /**
     * Installs the handlers of the server's own process; a signal the platform does not have is
     * logged (LM1401) and skipped.
     */
    public SignalQueue install() {
        installForChild();
        for (String name : ignoredAtStart) {
            LOG.log(Level.WARNING, "LM1402 SIG{0} was ignored when this process started (nohup, or a parent "
                    + "that ignores it), and the JVM keeps it ignored: {1}", name, name.equals("HUP")
                    ? "SIGHUP and -k restart do not restart it; use -k graceful (SIGUSR1)"
                    : "SIGTERM and -k stop do not stop it; use -k graceful-stop (SIGWINCH) or SIGINT");
        }
        if (onTerminal()) {
            LOG.log(Level.INFO, "LM1905 SIGWINCH (graceful stop) is not handled: this process runs on a terminal, "
                    + "which sends it when its window is resized; stop with SIGTERM or -k stop");
        } else {
            handle("WINCH", Event.STOP);
        }
        return this;
    }

    /**
     * Installs the handlers of a child process of {@code ChildProcesses On}: the same except
     * {@code SIGWINCH}, which a terminal sends to the whole foreground process group when it is
     * resized (the supervisor stops its children through their control pipe, not by signal).
     * {@code SIGUSR1} is handled (and ignored by the child) so that a stray one does not kill it.
     */
    public SignalQueue installForChild() {
        handle("TERM", Event.STOP);
        handle("INT", Event.STOP);
        handle("HUP", Event.RESTART);
        handle("USR1", Event.RESTART);
        return this;
    }

    /**
     * Whether standard input, output or error is a terminal (Linux: {@code /proc/self/fd} names a
     * {@code /dev/pts} or {@code /dev/tty} device): then the process is likely in a terminal's
     * foreground group, which receives {@code SIGWINCH} on every resize. {@code nohup}, a
     * service manager or a container without a TTY leave none, so {@code WINCH} is handled there.
     * Elsewhere (no {@code /proc}) the answer is "no", httpd's behaviour. Not
     * {@code System.console()}: on JDK 22+ its first call costs a console provider's lookup
     * (about 0.1 s of start-up on JDK 25, measured on a busy machine).
     */
    static boolean onTerminal() {
        for (int fd = 0; fd <= 2; fd++) {
            try {
                String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/" + fd))
                        .toString();
                if (target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console")) {
                    return true;
                }
            } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
                // not Linux, or the descriptor is closed: not a terminal as far as we can tell
            }
        }
        return false;
    }

    private void handle(String name, Event event) {
        try {
            SignalHandler before = Signal.handle(new Signal(name), new Enqueue(event));
            // HUP and TERM only: the JVM keeps them (and INT, which a shell ignores for background
            // jobs: not worth a warning) ignored; USR1 and WINCH get their handler regardless.
            if (before == SignalHandler.SIG_IGN && (name.equals("HUP") || name.equals("TERM"))) {
                ignoredAtStart.add(name);
            }
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "LM1401 cannot handle SIG{0} on this platform: {1}", name, e.getMessage());
        }
    }

    /** A signal handler that queues its event (a class, not a lambda: it is set up at start-up). */
    private final class Enqueue implements sun.misc.SignalHandler {
        private final Event event;

        Enqueue(Event event) {
            this.event = event;
        }

        @Override
        public void handle(Signal signal) {
            events.add(event);
        }
    }

    /** Blocks until the next signal. */
    public Event take() throws InterruptedException {
        return events.take();
    }
}
