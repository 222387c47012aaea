package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.TargetEcho;

/**
 * The jar against httpd (Debian's {@code apache2}) with the same {@code ProxyPass} and
 * {@code <Location> Require all denied}, over a list of tricky request targets (issue 51): each
 * target goes to both as written, on a raw socket, and the status and the path the backend
 * received (a raw-socket backend echoes its request line's target) must be the same, or be one
 * of the deliberate differences below, which docs/operations.md lists with their reasons. Skipped
 * when apache2 is not installed ({@code .ci/run} installs it). Everything on 127.0.0.1.
 */
class ProxyHttpdIT {
    private static final List<String> MODULES = List.of("authz_core", "proxy", "proxy_http");

    /** Targets with the same answer from both, or from loom-mpm as {@link #DELIBERATE} says. */
    private static final List<String> TARGETS = List.of(
            "/b/x", "/b/secret", "/b/secret/", "/b/secret/x", "/b/secretary",
            "/b/secret;x=1", "/b/secret;x=1/admin", "/b/secret;", "/b/secret%3Bx", "/b/;x/secret",
            "/b/x/..;/secret", "/b/x/..;y=1/secret", "/b/x;/../secret",
            "/b/secret.", "/b/secret./x", "/b/secret..", "/b/secret%2e", "/b/secret%20",
            "/b/secret/../ok", "/b/x/../../b/y", "/b/x/../../y", "/b/../secret", "/b/./secret", "/b//secret",
            "/b/%2e%2e/secret", "/b/x/%2e%2e/secret", "/b/x/.%2e/secret", "/b/x/%2E/secret",
            "/b/secret%2Fx", "/b/x%2F..%2Fsecret", "/b/sec%72et", "/b/SECRET",
            "/b/caf%C3%A9", "/b/caf%c3%a9", "/b/%41b", "/b/%7euser", "/b/a%20b", "/b/a%25b", "/b/a+b", "/b/a@b:c", "/b/a!$&'()*,=b",
            "/b/pub;jsessionid=abc.n1", "/b/pub;a=1;b=2/c", "/b/pub?q=/../secret", "/b/secret?x",
            "/b/x/..", "/b/x/.", "/b/..", "/b", "/b/",
            "http://localhost/b/secret", "http://localhost/b/x/../secret", "http://localhost/b/y",
            "http://localhost/b/secret;x=1",
            "/b/secret%00", "/b/secret\\x");

    /**
     * Where loom-mpm answers otherwise, on purpose, and what it answers (httpd's answer is in
     * the report). Path parameters and dot-segments: httpd authorises {@code secret;x=1} as a
     * name of its own and forwards it, and a Servlet container serves {@code /app/secret}.
     * Trailing dots and spaces: a Windows backend serves {@code secret}. {@code %3B}: httpd
     * forwards it decoded, where the container strips it. NUL and backslash: refused outright.
     */
    private static final Map<String, String> DELIBERATE = Map.ofEntries(
            Map.entry("/b/secret;x=1", "403"),
            Map.entry("/b/secret;x=1/admin", "403"),
            Map.entry("/b/secret;", "403"),
            Map.entry("/b/secret%3Bx", "403"),
            Map.entry("/b/;x/secret", "403"),
            Map.entry("/b/x/..;/secret", "403"),
            Map.entry("/b/x/..;y=1/secret", "403"),
            Map.entry("http://localhost/b/secret;x=1", "403"),
            Map.entry("/b/secret.", "400"),
            Map.entry("/b/secret./x", "400"),
            Map.entry("/b/secret..", "400"),
            Map.entry("/b/secret%2e", "400"),
            Map.entry("/b/secret%20", "400"),
            Map.entry("/b/secret%00", "400"),
            Map.entry("/b/secret\\x", "400"));

    @TempDir
    Path dir;

    @Test
    void theJarAndHttpdAuthoriseAndForwardTrickyTargetsAlike() throws Exception {
        assumeTrue(Httpd.installed(MODULES),
                "apache2 with mod_proxy_http is not installed (apt-get install apache2): skipped");
        try (TargetEcho backend = TargetEcho.start()) {
            String rules = """
                    ProxyPass /b/ http://127.0.0.1:%d/app/
                    <Location /b/secret>
                        Require all denied
                    </Location>
                    """.formatted(backend.port());
            Files.writeString(dir.resolve("loom.conf"), "Listen 127.0.0.1:0\nCustomLog /dev/null common\n" + rules);
            try (Httpd httpd = Httpd.start(dir, MODULES, rules);
                 JarProcess loom = JarProcess.start(dir, "-f", "loom.conf")) {
                int httpdPort = httpd.port();
                int loomPort = loom.port();
                Map<String, String[]> results = new LinkedHashMap<>();
                for (String target : TARGETS) {
                    results.put(target, new String[] {TargetEcho.get(httpdPort, target), TargetEcho.get(loomPort, target)});
                }
                StringBuilder report = new StringBuilder("target | httpd | loom-mpm\n");
                List<String> wrong = new ArrayList<>();
                results.forEach((target, r) -> {
                    report.append(target).append(" | ").append(r[0]).append(" | ").append(r[1]).append('\n');
                    String expected = DELIBERATE.getOrDefault(target, r[0]);
                    if (!expected.equals(r[1])) {
                        wrong.add(target + ": expected " + expected + " (httpd: " + r[0] + "), got " + r[1]);
                    }
                });
                System.out.print(report);
                assertEquals(List.of(), wrong, report.toString());
            }
        }
    }
}
