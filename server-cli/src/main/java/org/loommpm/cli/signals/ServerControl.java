package org.loommpm.cli.signals;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code -k start|stop|restart|graceful|graceful-stop}: httpd's way of talking to the running
 * server, found through its {@link PidFile}, with httpd's answers when none runs.
 *
 * <table>
 *   <caption>What each command does</caption>
 *   <tr><th>command</th><th>server running</th><th>none running</th></tr>
 *   <tr><td>start</td><td>"already running", exit 0</td><td>start (in the foreground)</td></tr>
 *   <tr><td>stop</td><td>{@code SIGTERM}</td><td>"not running", exit 0</td></tr>
 *   <tr><td>restart</td><td>{@code SIGHUP}</td><td>start</td></tr>
 *   <tr><td>graceful</td><td>{@code SIGUSR1}</td><td>start</td></tr>
 *   <tr><td>graceful-stop</td><td>{@code SIGWINCH}</td><td>"not running", exit 0</td></tr>
 * </table>
 *
 * In loom-mpm {@code SIGHUP} has always been the graceful restart (httpd's is immediate), so
 * {@code restart} and {@code graceful} do the same; {@code SIGTERM} has always been the graceful
 * stop (httpd's is immediate), so {@code stop} and {@code graceful-stop} do the same. A signal is
 * sent with the system's {@code kill} command: the JDK can only send {@code SIGTERM} and
 * {@code SIGKILL} to another process.
 */
public final class ServerControl {
    /** A {@code -k} argument. */
    public enum Command {
        /** Start unless one runs. */
        START(null, true),
        /** Graceful stop ({@code SIGTERM}). */
        STOP("TERM", false),
        /** Graceful restart through {@code SIGHUP} (loom-mpm's, graceful since its first release). */
        RESTART("HUP", true),
        /** Graceful restart ({@code SIGUSR1}, httpd's graceful). */
        GRACEFUL("USR1", true),
        /** Graceful stop ({@code SIGWINCH}, httpd's graceful-stop). */
        GRACEFUL_STOP("WINCH", false);

        private final String signal;
        private final boolean startsIfNotRunning;

        Command(String signal, boolean startsIfNotRunning) {
            this.signal = signal;
            this.startsIfNotRunning = startsIfNotRunning;
        }

        /** The {@code -k} argument's spelling. */
        public String argument() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * @throws IllegalArgumentException for anything but the five arguments
         */
        public static Command parse(String arg) {
            for (Command c : values()) {
                if (c.argument().equals(arg)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("-k: unknown command '" + arg
                    + "' (known: start, stop, restart, graceful, graceful-stop)");
        }
    }

    /** What {@link #run} returns when the caller should go on and start the server. */
    public static final int START = -1;

    private ServerControl() {
    }

    /**
     * Carries out {@code command} against the server {@code pidFile} names.
     *
     * @param pidFile the configuration's {@code PidFile}, or null when it names none
     * @param out where httpd's messages go (stdout)
     * @param err where failures go (stderr)
     * @return {@link #START}, or the exit status
     */
    public static int run(Command command, Path pidFile, PrintStream out, PrintStream err) {
        if (pidFile == null) {
            if (command == Command.START) {
                return START;
            }
            err.println("loom-mpm: -k " + command.argument() + " needs a PidFile in the configuration (nothing else "
                    + "names the running server)");
            return 1;
        }
        PidFile.Status s;
        try {
            s = new PidFile(pidFile).read();
        } catch (IOException e) {
            err.println("loom-mpm: cannot use PidFile " + pidFile + ": " + e.getMessage());
            return 1;
        }
        String status = !s.exists() ? "loom-mpm (no pid file) not running"
                : s.running() ? "loom-mpm (pid " + s.pid() + ") already running"
                : "loom-mpm (pid " + s.pid() + "?) not running";
        if (!s.running()) {
            if (command.startsIfNotRunning) {
                if (command != Command.START) {
                    out.println("loom-mpm not running, trying to start");
                }
                return START;
            }
            out.println(status);
            return 0;
        }
        if (command == Command.START) {
            out.println(status);
            return 0;
        }
        return send(command.signal, s.pid(), err);
    }

    /** {@code kill -s SIGNAL pid}: 0 when delivered, else 1 with the reason on {@code err}. */
    static int send(String signal, long pid, PrintStream err) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                err.println("loom-mpm: kill -s " + signal + " " + pid + " did not finish");
                return 1;
            }
            if (kill.exitValue() != 0) {
                err.println("loom-mpm: kill -s " + signal + " " + pid + " failed (exit " + kill.exitValue() + ")");
                return 1;
            }
            return 0;
        } catch (IOException e) {
            err.println("loom-mpm: cannot run kill: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }
}
