package org.loommpm.cli.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** curl as a real client: headers and body of one exchange. */
final class Curl {
    /** One response: status, last response's headers (lowercase names), body as Latin-1 text. */
    record Response(int exit, int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private Curl() {
    }

    /** Runs {@code curl -s -D - ARGS} (without {@code -D} for {@code --head}) (with a 20 s limit) and parses what it printed. */
    static Response run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-s", "-S", "--max-time", "20"));
        if (!List.of(args).contains("--head")) {
            cmd.addAll(List.of("-D", "-")); // --head prints the head itself; both would interleave
        }
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        p.getErrorStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("curl hung");
        }
        String all = new String(out, StandardCharsets.ISO_8859_1);
        int status = 0;
        Map<String, String> headers = new LinkedHashMap<>();
        int pos = 0;
        // Skip interim and earlier (redirect) heads: parse heads until the body starts.
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
        return new Response(p.exitValue(), status, headers, all.substring(pos));
    }
}
