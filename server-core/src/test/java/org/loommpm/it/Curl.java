package org.loommpm.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the curl command line client, for interoperability tests; tests skip when it is absent. */
final class Curl {
    private static Boolean available;

    /** What a curl run produced. */
    record Result(int exitCode, byte[] stdout, String stderr) {
        String text() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    private Curl() {
    }

    /** Whether {@code curl} can be run here. */
    static synchronized boolean available() {
        if (available == null) {
            try {
                available = run("--version").exitCode() == 0;
            } catch (IOException e) {
                available = false;
            }
        }
        return available;
    }

    /** Runs {@code curl args...} (with {@code -s}, silent) and waits up to 60 s for it. */
    static Result run(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("curl");
        cmd.add("-s");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> copy(p.getErrorStream(), err));
        byte[] out = p.getInputStream().readAllBytes();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("curl did not finish within 60 s: " + cmd);
            }
            errReader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted", e);
        }
        return new Result(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException ignored) {
            // The process ended; what was read is enough for a failure message.
        }
    }
}
