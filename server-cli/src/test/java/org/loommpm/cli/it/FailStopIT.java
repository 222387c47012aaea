package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.it.fatal.FatalApplication;

/**
 * Fail-stop in the jar: an out-of-memory error in a handler (the engine's fail-stop) or in any
 * other thread of the process (the jar's default handler of uncaught exceptions) ends the process
 * with exit status 3 after the error log has its line (LM2600), rather than leaving it up serving
 * less or nothing. The failures come from an application the jar loads
 * ({@link FatalApplication}), not from a switch of the jar's. (The jar runs an application only on
 * workers, so a poller cannot be made to die this way: the engine's {@code FailStopTest} covers
 * that and the supervisor's death, {@code FatalExitTest} their exit statuses.)
 */
class FailStopIT {
    @TempDir
    Path dir;

    /** {@link FatalApplication} and its service declaration, as a jar in the test's directory. */
    private void appJar() throws IOException {
        String name = FatalApplication.class.getName().replace('.', '/') + ".class";
        Path classes = Path.of(FatalApplication.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(dir.resolve("fatal-app.jar")))) {
            out.putNextEntry(new JarEntry(name));
            Files.copy(classes.resolve(name), out);
            out.putNextEntry(new JarEntry("META-INF/services/org.loommpm.api.Application"));
            out.write((FatalApplication.class.getName() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
    }

    private JarProcess start() throws Exception {
        appJar();
        Path conf = dir.resolve("loom.conf");
        Files.writeString(conf, "Listen 127.0.0.1:0\n"
                + "LoadApplication fatal " + FatalApplication.class.getName() + " fatal-app.jar\n"
                + "<Location /fatal>\n    SetHandler fatal\n</Location>\n");
        return JarProcess.start(dir, "-f", conf.toString());
    }

    /** Sends {@code GET path}; whether the server closed the connection (EOF or reset) within 10 s. */
    private static boolean getSeesClose(int port, String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            try {
                return in.readAllBytes().length == 0;
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }
    }

    @Test
    void outOfMemoryInAHandlerEndsTheProcessWithStatus3() throws Exception {
        try (JarProcess server = start()) {
            assertTrue(getSeesClose(server.port(), "/fatal/oom"), "the connection is closed, no answer");
            assertEquals(3, server.waitExit(Duration.ofSeconds(30)), "exit status; stderr:\n" + server.stderr());
            assertTrue(server.stderr().contains("LM2600 out of memory in"), server.stderr());
        }
    }

    @Test
    void outOfMemoryEndingAThreadOfTheApplicationsOwnEndsTheProcessWithStatus3() throws Exception {
        try (JarProcess server = start()) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET /fatal/thread HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertTrue(new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200"));
            }
            assertEquals(3, server.waitExit(Duration.ofSeconds(30)), "exit status; stderr:\n" + server.stderr());
            assertTrue(server.stderr().contains("LM2600 out of memory in Thread[#"), server.stderr());
            assertTrue(server.stderr().contains("fatal-app-thread"), server.stderr());
        }
    }
}
