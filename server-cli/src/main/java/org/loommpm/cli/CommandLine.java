package org.loommpm.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.cli.children.ChildSpec;
import org.loommpm.cli.config.ConfigVariables;
import org.loommpm.cli.signals.ServerControl;

/**
 * The options, in httpd's spirit: {@code -f FILE}, {@code -C 'Directive args'} (before the file),
 * {@code -c 'Directive args'} (after it), {@code -D name} (for {@code <IfDefine name>}),
 * {@code -k start|stop|restart|graceful|graceful-stop}, {@code -t}, {@code -v}, {@code -h}.
 *
 * @param action what to do
 * @param file the configuration file, or null for the embedded default
 * @param before {@code -C} lines in order
 * @param after {@code -c} lines in order
 * @param defines {@code -D} names in order
 * @param child for a child process of {@code ChildProcesses On} (internal option {@code --child}), else null
 * @param control the {@code -k} command, or null
 */
record CommandLine(Action action, Path file, List<String> before, List<String> after, List<String> defines,
                   ChildSpec child, ServerControl.Command control) {
    /** What the invocation asks for. */
    enum Action { SERVE, TEST, VERSION, HELP }

    /** A command line that cannot be run: print the message and the usage, exit 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message, null, false, false);
        }
    }

    static final String USAGE = """
            usage: java -jar loom-mpm.jar [-f file] [-C "directive"] [-c "directive"] [-D name]
                                          [-k start|stop|restart|graceful|graceful-stop] [-t] [-v] [-h]
              (no options)     serve the embedded default on http://localhost:8080/
                               (a welcome page, ./htdocs if it exists, /server-status from localhost)
              -f file          read this configuration file instead of the embedded default
              -C "directive"   process the directive before reading the configuration (repeatable)
              -c "directive"   process the directive after reading the configuration (repeatable)
              -D name          define a name for <IfDefine name> sections, as "Define name" would
                               (repeatable; also -Dname; a variable: -C "Define name value")
              -k start         serve (in the foreground) unless the server the PidFile names runs
              -k stop          graceful stop of the server the PidFile names (SIGTERM)
              -k graceful-stop the same through SIGWINCH (httpd's graceful-stop)
              -k restart       graceful restart: re-read the configuration (SIGHUP); starts if none runs
              -k graceful      the same through SIGUSR1 (httpd's graceful); starts if none runs
              -t               check the configuration's syntax, print "Syntax OK" or the error, exit 0 or 1
              -v               print the version and exit
              -h               print this help and exit
            signals: TERM/INT/WINCH stop gracefully, HUP/USR1 re-read the configuration (graceful restart)""";

    /** The configuration options again ({@code -f}, {@code -C}, {@code -c}, {@code -D}), for a child process. */
    List<String> configArgs() {
        List<String> out = new ArrayList<>();
        if (file != null) {
            out.add("-f");
            out.add(file.toAbsolutePath().toString());
        }
        for (String b : before) {
            out.add("-C");
            out.add(b);
        }
        for (String a : after) {
            out.add("-c");
            out.add(a);
        }
        for (String d : defines) {
            out.add("-D");
            out.add(d);
        }
        return out;
    }

    static CommandLine parse(String[] args) throws UsageException {
        Action action = Action.SERVE;
        Path file = null;
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        List<String> defines = new ArrayList<>();
        ChildSpec child = null;
        ServerControl.Command control = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case ChildSpec.OPTION -> {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option " + a + " needs an argument");
                    }
                    try {
                        child = ChildSpec.decode(args[++i]);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "-D" -> {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option -D needs an argument");
                    }
                    defines.add(defineName(args[++i]));
                }
                case "-f", "-C", "-c" -> {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option " + a + " needs an argument");
                    }
                    String v = args[++i];
                    if (a.equals("-f")) {
                        if (file != null) {
                            throw new UsageException("option -f given twice");
                        }
                        file = Path.of(v);
                    } else {
                        (a.equals("-C") ? before : after).add(v);
                    }
                }
                case "-k" -> {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option -k needs an argument (start, stop, restart, graceful, "
                                + "graceful-stop)");
                    }
                    if (control != null) {
                        throw new UsageException("option -k given twice");
                    }
                    try {
                        control = ServerControl.Command.parse(args[++i]);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "-t" -> action = action == Action.SERVE ? Action.TEST : action;
                case "-v" -> action = Action.VERSION;
                case "-h", "--help" -> action = Action.HELP;
                default -> {
                    if (!a.startsWith("-D")) {
                        throw new UsageException("unknown option '" + a + "'");
                    }
                    defines.add(defineName(a.substring(2)));
                }
            }
        }
        return new CommandLine(action, file, List.copyOf(before), List.copyOf(after), List.copyOf(defines), child,
                control);
    }

    /**
     * {@code -D}'s argument: a name, as httpd's {@code -D} takes. httpd would define
     * {@code name=value} as a name of its own, which no one means: it is refused, pointing at
     * {@code Define}, which gives a variable.
     */
    private static String defineName(String name) throws UsageException {
        if (name.indexOf('=') >= 0) {
            throw new UsageException("option -D takes a name, not '" + name + "' (for a ${variable}: -C \"Define "
                    + name.replaceFirst("=", " ") + "\")");
        }
        String problem = ConfigVariables.nameProblem(name);
        if (problem != null) {
            throw new UsageException("option -D: " + problem);
        }
        return name;
    }
}
