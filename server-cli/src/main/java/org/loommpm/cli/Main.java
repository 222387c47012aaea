package org.loommpm.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.cli.config.ConfigParser;
import org.loommpm.cli.config.DirectiveTable;
import org.loommpm.cli.config.LoomConfig;
import org.loommpm.cli.config.Version;
import org.loommpm.cli.logging.JulBridge;
import org.loommpm.cli.signals.SignalQueue;

/**
 * {@code java -jar loom-mpm.jar}: reads the configuration (a file with {@code -f}, else the
 * embedded default), then serves until {@code SIGTERM}/{@code SIGINT}; {@code SIGHUP} re-reads it.
 * Exit status: 0 after a graceful stop or a successful {@code -t}/{@code -v}/{@code -h}, 1 for
 * a configuration error or a failed start, 2 for a bad command line.
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

    /** Loads the local zone's rules in the background. */
    private static final class ZoneWarmUp implements Runnable {
        @Override
        public void run() {
            java.time.ZoneId.systemDefault().getRules();
        }
    }

    /** @param args see {@link CommandLine#USAGE} */
    public static void main(String[] args) throws Exception {
        // JUL, if anything ever loads it, reports to the error log; naming the class costs nothing now.
        if (System.getProperty("java.util.logging.config.class") == null) {
            System.setProperty("java.util.logging.config.class", JulBridge.class.getName());
        }
        // Loading the time-zone rules (for log timestamps) takes a while: do it on the other core
        // while the configuration is read.
        Thread.ofPlatform().daemon().name("loom-warmup").start(new ZoneWarmUp());
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (CommandLine.UsageException e) {
            System.err.println("loom-mpm: " + e.getMessage());
            System.err.println(CommandLine.USAGE);
            System.exit(2);
            return;
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
        ServerProcess.Loader loader = () -> new ConfigParser(DirectiveTable.standard())
                .parse(new ConfigParser.Source(cl.file(), embeddedDefault(cl), cl.before(), cl.after()));
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
            System.out.println("Syntax OK");
            return;
        }
        SignalQueue signals = new SignalQueue().install();
        System.exit(new ServerProcess(loader).run(config, signals));
    }
}
