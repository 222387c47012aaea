package org.loommpm.cli.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code apache2} in the foreground on 127.0.0.1, with a configuration of its own: the
 * event MPM and the modules a differential test names, then the rules under test (the same text
 * the jar is given). Skipped by the callers when apache2 is not installed ({@code .ci/run}
 * installs it).
 */
final class Httpd implements AutoCloseable {
    static final Path APACHE2 = Path.of("/usr/sbin/apache2");
    static final Path MODULES = Path.of("/usr/lib/apache2/modules");

    private final Process process;
    private final int port;

    private Httpd(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Whether apache2 and these modules ({@code proxy_http} ...) are installed. */
    static boolean installed(List<String> modules) {
        return Files.isExecutable(APACHE2) && modules.stream().allMatch(m -> Files.exists(MODULES.resolve("mod_" + m + ".so")));
    }

    /**
     * Makes {@code dir} and everything in it readable by every user: httpd's children run as
     * nobody when the tests run as root (CI), and JUnit's temporary directories are private.
     */
    static void openToOthers(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.toList()) {
                if (!Files.isSymbolicLink(p)) {
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
    }

    /** The port it listens on. */
    int port() {
        return port;
    }

    /**
     * Starts httpd on a port found free just before: it cannot bind port 0 and tell which it got,
     * so a port another process took in between makes it exit, and it is tried again on another.
     *
     * @param dir where its configuration, pid file and logs go
     * @param modules the modules to load ({@code authz_core} ...)
     * @param rules the configuration under test
     */
    static Httpd start(Path dir, List<String> modules, String rules) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            try {
                return new Httpd(start(dir, port, modules, rules), port);
            } catch (AssertionError e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static Process start(Path dir, int port, List<String> modules, String rules) throws Exception {
        Path root = Files.createDirectories(dir.resolve("httpd"));
        StringBuilder load = new StringBuilder("LoadModule mpm_event_module " + MODULES + "/mod_mpm_event.so\n");
        for (String m : modules) {
            load.append("LoadModule ").append(m).append("_module ").append(MODULES).append("/mod_").append(m).append(".so\n");
        }
        Files.writeString(root.resolve("httpd.conf"), """
                ServerRoot %1$s
                ServerName localhost
                Listen 127.0.0.1:%2$d
                PidFile %1$s/httpd.pid
                ErrorLog %1$s/error.log
                %3$s
                # Only used when started as root (CI): the children drop to nobody.
                User #65534
                Group #65534
                %4$s
                """.formatted(root, port, load, rules));
        Process p = new ProcessBuilder(APACHE2.toString(), "-f", root.resolve("httpd.conf").toString(), "-DFOREGROUND")
                .redirectErrorStream(true).redirectOutput(root.resolve("stdout.txt").toFile()).start();
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return p;
            } catch (IOException e) {
                if (!p.isAlive() || System.nanoTime() > end) {
                    p.destroyForcibly();
                    Path log = root.resolve("error.log");
                    throw new AssertionError("httpd did not start: " + Files.readString(root.resolve("stdout.txt"))
                            + (Files.exists(log) ? Files.readString(log) : ""));
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
