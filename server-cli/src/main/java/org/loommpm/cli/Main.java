package org.loommpm.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.loommpm.cli.children.ChildCommand;
import org.loommpm.cli.config.ApplicationDirectives;
import org.loommpm.cli.config.ChildDirectives;
import org.loommpm.cli.children.ProcessSupervisor;
import org.loommpm.cli.children.SupervisorConfig;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.cli.config.ConfigParser;
import org.loommpm.cli.config.DirectiveTable;
import org.loommpm.cli.config.LoomConfig;
import org.loommpm.cli.config.Version;
import org.loommpm.cli.logging.JulBridge;
import org.loommpm.cli.config.PidDirectives;
import org.loommpm.cli.signals.PidFile;
import org.loommpm.cli.signals.ServerControl;
import org.loommpm.cli.signals.SignalQueue;

/**
 * {@code java -jar loom-mpm.jar}: reads the configuration (a file with {@code -f}, else the
 * embedded default), then serves until {@code SIGTERM}/{@code SIGINT}/{@code SIGWINCH};
 * {@code SIGHUP}/{@code SIGUSR1} re-read it. {@code -k} signals the server a {@code PidFile} names
 * instead (see {@link ServerControl}).
 * Exit status: 0 after a graceful stop or a successful {@code -t}/{@code -v}/{@code -h}, 1 for
 * a configuration error or a failed start, 2 for a bad command line; 3, 4, 5 after a fatal error
 * (out of memory, a poller or the supervisor thread died: {@link FatalExit}).
 */
public final class Main {
    private Main() {
    }

    /**
     * The embedded default: port 8080 (unless a {@code -C}/{@code -c} option names its own
     * {@code Listen}), ./htdocs if present, the status page for localhost.
     */
    static String embeddedDefault(CommandLine cl) {
        boolean listens = false;
        for (String d : cl.before()) {
            listens |= d.strip().regionMatches(true, 0, "Listen ", 0, 7);
        }
        for (String d : cl.after()) {
            listens |= d.strip().regionMatches(true, 0, "Listen ", 0, 7);
        }
        return (listens ? "" : "Listen 8080\n")
                + (Files.isDirectory(Path.of("htdocs")) ? "DocumentRoot htdocs\n" : "")
                + "<Location /server-status>\n"
                + "    SetHandler server-status\n"
                + "    Require ip 127.0.0.1 ::1\n"
                + "</Location>\n";
    }

    /**
     * One-time costs paid on another core while the main thread reads the configuration and
     * starts the engine, in the order the main thread needs them: {@code InetAddress} (a
     * {@code Listen} address; its first use reads the JDK's security properties), the logger
     * service lookup (the first class with a logger, once the configuration is read), the
     * default time zone (the first log line), then the first virtual thread: the JDK's scheduler
     * and carrier threads, and the lambda machinery they spin classes with, which the engine's
     * start needs too. Otherwise the first request would pay for the virtual thread it is
     * served on. Each step only does earlier what the start does anyway; a step the main thread
     * reaches first is not repeated (it waits for the class initialization in progress).
     */
    private static final class WarmUp implements Runnable {
        @Override
        public void run() {
            java.net.InetAddress.getLoopbackAddress();
            System.getLogger("org.loommpm.cli").isLoggable(System.Logger.Level.DEBUG);
            java.util.TimeZone.getDefault();
            try {
                Thread.ofVirtual().name("loom-warmup").start(new Noop()).join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The warm-up virtual thread's task. */
    private static final class Noop implements Runnable {
        @Override
        public void run() {
        }
    }

    /** Reads the configuration the command line names; again on every SIGHUP. */
    static final class FileLoader implements ServerProcess.Loader {
        private final CommandLine cl;

        FileLoader(CommandLine cl) {
            this.cl = cl;
        }

        @Override
        public LoomConfig load() throws ConfigException {
            return new ConfigParser(DirectiveTable.standard())
                    .parse(new ConfigParser.Source(cl.file(), embeddedDefault(cl), cl.before(), cl.after(),
                            cl.defines()));
        }
    }

    /**
     * The {@code ChildProcesses} supervisor's configuration: it serves no application (each child
     * process loads its own), so the jar loaders that reading found them with are closed at once.
     */
    private static final class SupervisorSource implements ProcessSupervisor.ConfigSource {
        private final ServerProcess.Loader loader;

        SupervisorSource(ServerProcess.Loader loader) {
            this.loader = loader;
        }

        @Override
        public SupervisorConfig load() throws Unreadable {
            try {
                return supervised(loader.load());
            } catch (ConfigException e) {
                throw new Unreadable(e.report());
            }
        }

        /** What the supervisor takes of {@code config}, whose applications' jar loaders it closes. */
        static SupervisorConfig supervised(LoomConfig config) {
            ApplicationDirectives.closeLoaders(config);
            return new SupervisorConfig(config.engine(), config.logs(), config.description(),
                    ChildDirectives.enabled(config));
        }
    }

    /** @param args see {@link CommandLine#USAGE} */
    public static void main(String[] args) throws Exception {
        // Out of memory in any thread ends the process (exit 3, LM2600): see FatalExit.
        Thread.setDefaultUncaughtExceptionHandler(new FatalExit.Uncaught());
        // JUL, if anything ever loads it, reports to the error log; naming the class costs nothing now.
        if (System.getProperty("java.util.logging.config.class") == null) {
            System.setProperty("java.util.logging.config.class", JulBridge.class.getName());
        }
        // One-time costs of the first log line and the first request, paid on another core.
        Thread.ofPlatform().daemon().name("loom-warmup").start(new WarmUp());
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (CommandLine.UsageException e) {
            System.err.println("loom-mpm: " + e.getMessage());
            System.err.println(CommandLine.USAGE);
            System.exit(2);
            return;
        }
        if (cl.action() == CommandLine.Action.SERVE) {
            // The classes of the engine's start and the first request, loaded on another core
            // while this thread reads the configuration.
            StartupClasses.start();
        }
        switch (cl.action()) {
            case VERSION -> {
                System.out.println("loom-mpm " + Version.current() + " (Java " + Runtime.version() + ")");
                return;
            }
            case HELP -> {
                System.out.println(CommandLine.USAGE);
                return;
            }
            default -> {
            }
        }
        ServerProcess.Loader loader = new FileLoader(cl);
        LoomConfig config;
        try {
            config = loader.load();
        } catch (ConfigException e) {
            System.err.println(e.report());
            System.exit(1);
            return;
        }
        if (cl.action() == CommandLine.Action.TEST) {
            for (String w : config.warnings()) {
                System.err.println("Warning: " + w);
            }
            // The pool limits' relations, adjusted by the engine (logged as LM0801 when serving).
            for (String w : config.engine().adjustments()) {
                System.err.println("Warning: " + w);
            }
            System.out.println("Syntax OK");
            return;
        }
        if (cl.child() != null) {
            System.exit(ChildServe.run(cl.child(), config, loader, new SignalQueue().installForChild()));
        }
        Path pidPath = PidDirectives.file(config);
        if (cl.control() != null) {
            int status = ServerControl.run(cl.control(), pidPath, System.out, System.err);
            if (status != ServerControl.START) {
                System.exit(status);
            }
        }
        SignalQueue signals = new SignalQueue().install();
        PidFile pid = pidPath != null ? new PidFile(pidPath) : null;
        if (ChildDirectives.enabled(config)) {
            System.exit(new ProcessSupervisor(new SupervisorSource(loader), new ChildCommand(cl.configArgs()),
                    Version.current()).run(SupervisorSource.supervised(config), signals, pid));
        }
        System.exit(new ServerProcess(loader).onFatal(FatalExit.HOOK).run(config, signals, pid));
    }
}
