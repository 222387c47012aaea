package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real clients (curl, h2load, nghttp); tests that need one skip when it is not installed. */
final class Tools {
    /** What a run produced. */
    record Result(int exitCode, String stdout, String stderr) {
    }

    private Tools() {
    }

    static boolean installed(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }

    static void assumeInstalled(String tool) {
        assumeTrue(installed(tool), tool + " is not installed");
    }

    /** Runs a command and waits up to 120 s. */
    static Result run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(cmd)).start();
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("did not finish within 120 s: " + cmd[0]);
        }
        errReader.join();
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
