package org.loommpm.cli.children;

import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child process: the supervisor's own java launcher and JVM options (with
 * {@code -XX:+ExitOnOutOfMemoryError} unless they say otherwise), the
 * jar (looked up again for every child, so a newer jar put at the same path runs in the next
 * generation: a zero-downtime upgrade), {@code --child SPEC}, then the supervisor's own
 * {@code -f}/{@code -C}/{@code -c} options.
 */
public final class ChildCommand {
    /** The JVM option that ends the JVM (status 3) at its first out-of-memory error. */
    static final String EXIT_ON_OOM = "-XX:+ExitOnOutOfMemoryError";

    private final String java;
    private final List<String> jvmOptions;
    private final List<String> launch;
    private final List<String> serverArgs;

    /**
     * @param serverArgs the supervisor's configuration options ({@code -f FILE -C ... -c ...})
     */
    public ChildCommand(List<String> serverArgs) {
        this.java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin",
                "java").toString());
        this.jvmOptions = exitOnOutOfMemory(inheritable(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        this.launch = launch();
        this.serverArgs = List.copyOf(serverArgs);
    }

    /**
     * The JVM options a child takes over: all but a debugger agent, whose fixed port the
     * supervisor already holds, the module path and main module ({@link #launch} names them), and
     * the options that write a start-up cache at exit (an AOT cache or CDS archive being trained:
     * every child would write the supervisor's file). A cache being read
     * ({@code -XX:AOTCache}, {@code -XX:SharedArchiveFile}) is passed on: the children run the
     * same jar on the same JDK and start faster with it.
     */
    static List<String> inheritable(List<String> options) {
        List<String> out = new ArrayList<>();
        for (String o : options) {
            if (!o.startsWith("-agentlib:jdwp") && !o.startsWith("-Xrunjdwp") && !o.equals("-Xdebug")
                    && !o.startsWith("--module-path=") && !o.startsWith("-Djdk.module.path=")
                    && !o.startsWith("--module=") && !o.startsWith("-Djdk.module.main")
                    && !writesStartupCache(o)) {
                out.add(o);
            }
        }
        return List.copyOf(out);
    }

    /**
     * {@code options} with {@value #EXIT_ON_OOM} added, unless they already say what an
     * out-of-memory error does ({@code ExitOnOutOfMemoryError} either way,
     * {@code CrashOnOutOfMemoryError}, {@code OnOutOfMemoryError=}). The child's own fail-stop
     * sees what its threads let through; the JVM's flag also ends it when code catches and
     * swallows the error, and needs no memory to do so. The supervisor replaces the child
     * (LM1502, exit status 3).
     */
    static List<String> exitOnOutOfMemory(List<String> options) {
        for (String o : options) {
            if (o.contains("OutOfMemoryError")) {
                return options;
            }
        }
        List<String> out = new ArrayList<>(options);
        out.add(EXIT_ON_OOM);
        return List.copyOf(out);
    }

    /** The JVM options that record or write an AOT cache or a CDS archive. */
    private static boolean writesStartupCache(String option) {
        return option.startsWith("-XX:AOTCacheOutput=") || option.startsWith("-XX:AOTConfiguration=")
                || option.equals("-XX:AOTMode=record") || option.equals("-XX:AOTMode=create")
                || option.startsWith("-XX:ArchiveClassesAtExit=") || option.startsWith("-XX:DumpLoadedClassList=")
                || option.equals("-Xshare:dump");
    }

    /**
     * {@code -jar loom-mpm.jar}; on the module path the supervisor's module path and
     * {@code -m org.loommpm.cli/org.loommpm.cli.Main} (the launcher's own {@code -p} and {@code -m}
     * are left out of the inherited options); or the class path and main class when not run from
     * a jar (tests).
     */
    private static List<String> launch() {
        Module module = ChildCommand.class.getModule();
        String modulePath = System.getProperty("jdk.module.path");
        if (module.isNamed() && modulePath != null) {
            return List.of("--module-path", modulePath, "--module", module.getName() + "/org.loommpm.cli.Main");
        }
        Path where;
        try {
            where = Path.of(ChildCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            where = null;
        }
        if (where != null && Files.isRegularFile(where)) {
            return List.of("-jar", where.toString());
        }
        return List.of("-cp", System.getProperty("java.class.path"), "org.loommpm.cli.Main");
    }

    /** The full command for the child {@code spec}. */
    public List<String> forChild(ChildSpec spec) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.addAll(launch);
        cmd.add(ChildSpec.OPTION);
        cmd.add(spec.encode());
        cmd.addAll(serverArgs);
        return cmd;
    }
}
