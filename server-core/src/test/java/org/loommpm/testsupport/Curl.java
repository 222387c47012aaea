package org.loommpm.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the curl command line client, for interoperability tests: {@link #run} for what curl
 * printed, {@link #exchange} for one parsed exchange. Tests that can do without it skip when it
 * is absent ({@link #available}). Shared by every module's tests through server-core's test-jar.
 */
public final class Curl {
    private static Boolean available;

    /** What a curl run produced. */
    public record Result(int exitCode, byte[] stdout, String stderr) {
        /** Standard output as UTF-8 text. */
        public String text() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    /** One response: status, last response's headers (lowercase names), body as Latin-1 text. */
    public record Response(int exit, int status, Map<String, String> headers, String body) {
        /** A header of the last response, by case-insensitive name, or {@code null}. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private Curl() {
    }

    /** Whether {@code curl} can be run here. */
    public static synchronized boolean available() {
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
    public static Result run(String... args) throws IOException {
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

    /**
     * Runs {@code curl -s -S -D - ARGS} (without {@code -D} for {@code --head}) with a 20 s limit
     * and parses what it printed: interim and redirect heads are skipped, the last one is kept.
     */
    public static Response exchange(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("-S", "--max-time", "20"));
        if (!List.of(args).contains("--head")) {
            cmd.addAll(List.of("-D", "-")); // --head prints the head itself; both would interleave
        }
        cmd.addAll(List.of(args));
        Result r = run(cmd.toArray(String[]::new));
        String all = new String(r.stdout(), StandardCharsets.ISO_8859_1);
        int status = 0;
        Map<String, String> headers = new LinkedHashMap<>();
        int pos = 0;
        while (all.startsWith("HTTP/", pos)) {
            int end = all.indexOf("\r\n\r\n", pos);
            if (end < 0) {
                break;
            }
            String[] lines = all.substring(pos, end).split("\r\n");
            status = Integer.parseInt(lines[0].split(" ")[1]);
            headers.clear();
            for (int i = 1; i < lines.length; i++) {
                int c = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
            }
            pos = end + 4;
        }
        return new Response(r.exitCode(), status, headers, all.substring(pos));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException ignored) {
            // The process ended; what was read is enough for a failure message.
        }
    }
}
