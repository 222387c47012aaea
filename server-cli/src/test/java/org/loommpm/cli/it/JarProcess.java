package org.loommpm.cli.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code loom-mpm.jar} run as a separate process, the way an operator runs it: stdout and stderr
 * go to files in the test's directory, signals are sent with {@code kill} to this process's PID
 * only, and {@link #close} kills it (by PID) if a test left it running.
 */
final class JarProcess implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private JarProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    /** The jar under test (failsafe passes its path). */
    static Path jar() {
        return Path.of(System.getProperty("loom.jar", "target/loom-mpm.jar")).toAbsolutePath();
    }

    /** The java launcher running these tests: the jar needs 21+, and so do we. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * A port on 127.0.0.1 held for a jar whose listeners bind with SO_REUSEPORT ({@code ChildProcesses
     * On}: each child binds the configured port itself, so {@code Listen 127.0.0.1:0} cannot do).
     * The returned socket is bound to it with SO_REUSEPORT and never listens: the children bind
     * beside it, any other bind is refused until it is closed, and it takes no connection. (A port
     * found free and then closed could be taken by another process before the jar binds it.)
     */
    static Socket reservePort() throws IOException {
        Socket held = new Socket();
        try {
            held.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return held;
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /** What a process that ran to its end said. */
    record Result(int exit, String out, String err) {
    }

    /** Runs the jar to completion (e.g. {@code -t}) within 30 s. */
    static Result run(Path dir, String... args) throws Exception {
        Process p = new ProcessBuilder(command(args)).directory(dir.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("jar did not finish");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xss1m", "-jar", jar().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts the jar and waits until it prints that it listens (or fails within 20 s). */
    static JarProcess start(Path dir, String... args) throws Exception {
        return launch(dir, command(args));
    }

    /** {@link #start}, with {@code env} added to the jar's environment. */
    static JarProcess start(Path dir, Map<String, String> env, String... args) throws Exception {
        return launch(dir, command(args), env);
    }

    /**
     * Starts {@code command} (a java command line of the test's own, e.g. on the module path)
     * and waits until it prints that it listens (or fails within 20 s).
     */
    static JarProcess launch(Path dir, List<String> command) throws Exception {
        return launch(dir, command, Map.of());
    }

    private static JarProcess launch(Path dir, List<String> command, Map<String, String> env) throws Exception {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        JarProcess j = new JarProcess(p, out, err);
        try {
            j.awaitOutput(s -> s.contains("listening on"), Duration.ofSeconds(20));
        } catch (AssertionError e) {
            j.close();
            throw e;
        }
        return j;
    }

    long pid() {
        return process.pid();
    }

    /** Sends a signal ({@code HUP}, {@code TERM}) to this process only. */
    void signal(String name) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (k.waitFor() != 0) {
            throw new AssertionError("kill -" + name + " failed");
        }
    }

    /** The port of the first {@code listening on http://127.0.0.1:PORT/} line in {@code stdout}. */
    static int listeningPort(String stdout) {
        Matcher m = LISTENING.matcher(stdout);
        if (!m.find()) {
            throw new AssertionError("no port in: " + stdout);
        }
        return Integer.parseInt(m.group(1));
    }

    /** The port this process said it listens on (a {@code Listen 127.0.0.1:0} start). */
    int port() throws IOException {
        return listeningPort(stdout());
    }

    /** The port this process said it listens on at {@code host} (a {@code Listen HOST:0} start). */
    int port(String host) throws IOException {
        Matcher m = Pattern.compile("listening on http://" + Pattern.quote(host) + ":(\\d+)/").matcher(stdout());
        if (!m.find()) {
            throw new AssertionError("no port for " + host + " in: " + stdout());
        }
        return Integer.parseInt(m.group(1));
    }

    /** Every port this process said it listens on at 127.0.0.1, in its {@code listening on} lines' order (plain listeners first). */
    List<Integer> ports() throws IOException {
        List<Integer> ports = new ArrayList<>();
        Matcher m = LISTENING.matcher(stdout());
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
        }
        return ports;
    }

    String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    /** Waits until stdout satisfies {@code test}. */
    void awaitOutput(Predicate<String> test, Duration max) throws Exception {
        awaitFile(stdout, test, max);
    }

    /** Waits until stderr satisfies {@code test}. */
    void awaitErrors(Predicate<String> test, Duration max) throws Exception {
        awaitFile(stderr, test, max);
    }

    /** Waits until a file exists and satisfies {@code test}. */
    void awaitFile(Path file, Predicate<String> test, Duration max) throws Exception {
        long end = System.nanoTime() + max.toNanos();
        String last = "";
        while (System.nanoTime() < end) {
            if (Files.exists(file)) {
                last = Files.readString(file, StandardCharsets.UTF_8);
                if (test.test(last)) {
                    return;
                }
            }
            if (!process.isAlive() && file.equals(stdout)) {
                throw new AssertionError("jar exited with " + process.exitValue() + "; stderr:\n" + stderr());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("timed out waiting on " + file.getFileName() + "; it has:\n" + last
                + "\nstderr:\n" + stderr());
    }

    /** Waits for the process to exit; its status. */
    int waitExit(Duration max) throws Exception {
        if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("jar still running after " + max);
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
