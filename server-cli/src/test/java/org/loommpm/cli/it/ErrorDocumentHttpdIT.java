package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ErrorDocument}, the jar against httpd (Debian's {@code apache2}, issue 52): text, a local
 * document, a URL and {@code default}, at the server level and in {@code <Location>}s, for the
 * site's 404, 403 and 401, a document that is missing or protected, with GET and HEAD. Status,
 * {@code Location}, {@code WWW-Authenticate} must agree, and where httpd sends the configured
 * answer (not its own HTML error page) so must the Content-Type and the body. Skipped when apache2
 * is not installed.
 */
class ErrorDocumentHttpdIT {
    private static final List<String> MODULES = List.of("authz_core", "authn_core", "authn_file", "auth_basic",
            "authz_user", "mime");

    private static final String RULES = """
            DocumentRoot %1$s/docs
            TypesConfig /etc/mime.types
            ErrorDocument 404 /errors/404.html
            ErrorDocument 403 "Sorry, you may not see this"
            ErrorDocument 500 http://example.com/oops
            <Location /private>
                Require all denied
            </Location>
            <Location /special>
                ErrorDocument 404 "Nothing here, special"
            </Location>
            <Location /defaulted>
                ErrorDocument 404 default
            </Location>
            <Location /moved>
                ErrorDocument 404 https://example.com/moved-away?x=1
            </Location>
            <Location /protected-doc>
                ErrorDocument 404 /secret/err.html
            </Location>
            <Location /secret>
                Require all denied
            </Location>
            <Location /missing-doc>
                ErrorDocument 404 /errors/none.html
            </Location>
            <Location /word>
                ErrorDocument 404 Gone
            </Location>
            <Location /login>
                AuthType Basic
                AuthName "Members"
                AuthUserFile %1$s/htpasswd
                Require valid-user
                ErrorDocument 401 /errors/401.html
                ErrorDocument 403 /errors/403.html
            </Location>
            <Location /login/admin>
                Require user nobody-has-this-name
            </Location>
            <Location /broken>
                AuthType Basic
                Require valid-user
            </Location>
            """;

    @TempDir
    Path dir;

    @Test
    void theJarAndHttpdAnswerErrorsAlike() throws Exception {
        assumeTrue(Httpd.installed(MODULES) && Files.exists(Path.of("/etc/mime.types")),
                "apache2 (and /etc/mime.types) is not installed: skipped");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("htpasswd"), "alice:{SHA}ohgYgF2kkgMlRbH1HlEDczlOc+M=\n");
        for (String f : List.of("errors/404.html", "errors/401.html", "errors/403.html", "secret/err.html", "private/x.txt",
                "login/x.txt", "login/admin/x.txt", "present.txt", "special/x.txt")) {
            Path p = dir.resolve("docs/" + f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "<p>" + f + "</p>\n");
        }
        Httpd.openToOthers(dir);
        String rules = RULES.formatted(dir);
        Files.writeString(dir.resolve("loom.conf"), "Listen 127.0.0.1:0\nCustomLog /dev/null common\n" + rules);
        String alice = "Basic " + Base64.getEncoder().encodeToString("alice:s3cret pass".getBytes(StandardCharsets.UTF_8));
        List<String[]> requests = new ArrayList<>();
        for (String path : List.of("/nope.html", "/present.txt", "/errors/404.html", "/private/x.txt", "/private/nope",
                "/special/nope", "/special/x.txt", "/defaulted/nope", "/moved/nope", "/protected-doc/nope", "/missing-doc/nope",
                "/word/nope", "/login/x.txt", "/login/nope", "/login/admin/x.txt", "/secret/err.html", "/broken/x")) {
            for (String method : List.of("GET", "HEAD")) {
                requests.add(new String[] {method, path, null});
                if (path.startsWith("/login")) {
                    requests.add(new String[] {method, path, alice});
                }
            }
        }
        List<String> rows = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        // A HEAD answer has no body to tell httpd's own page from the configured one: the GET's tells.
        java.util.Map<String, Boolean> pageOfGet = new java.util.HashMap<>();
        try (Httpd httpd = Httpd.start(dir, MODULES, rules); JarProcess loom = JarProcess.start(dir, "-f", "loom.conf")) {
            for (String[] r : requests) {
                Answer h = request(httpd.port(), r[0], r[1], r[2]);
                String key = r[1] + " " + r[2];
                if (r[0].equals("GET")) {
                    pageOfGet.put(key, h.httpdPage());
                } else {
                    h = h.withPage(pageOfGet.getOrDefault(key, false));
                }
                Answer l = request(loom.port(), r[0], r[1], r[2]);
                String row = r[0] + " " + r[1] + (r[2] == null ? "" : " (alice)") + " | " + h + " | " + l;
                rows.add(row);
                if (!h.comparable(h).equals(l.comparable(h))) {
                    wrong.add(row);
                }
            }
        }
        System.out.println("request | httpd | loom-mpm\n" + String.join("\n", rows));
        assertTrue(rows.size() >= 40, "cases: " + rows.size());
        assertEquals(List.of(), wrong, "differences from httpd (request | httpd | loom-mpm):\n" + String.join("\n", wrong));
    }

    /** One answer. */
    private record Answer(int status, String location, String challenge, String type, String body, boolean httpdPage) {
        Answer withPage(boolean page) {
            return new Answer(status, location, challenge, type, body, page);
        }

        /** What must agree: the body and type only where httpd sent the configured answer rather than its own page. */
        String comparable(Answer httpd) {
            return status + " " + location + " " + challenge + (httpd.httpdPage ? "" : " " + type + " " + body);
        }

        @Override
        public String toString() {
            return status + (location == null ? "" : " -> " + location) + (challenge == null ? "" : " [" + challenge + "]")
                    + " " + type + " " + body.substring(0, 8) + (httpdPage ? " (httpd page)" : "");
        }
    }

    private static Answer request(int port, String method, String path, String authorization) throws Exception {
        RawExchange r = RawExchange.send(port, method, path, authorization == null ? "" : "Authorization: " + authorization + "\r\n");
        String type = r.header("content-type");
        boolean httpdPage = new String(r.body(), StandardCharsets.ISO_8859_1).startsWith("<!DOCTYPE HTML PUBLIC");
        return new Answer(r.status(), r.header("location"), r.header("www-authenticate"),
                type == null ? null : type.toLowerCase(Locale.ROOT), r.bodySha256(), httpdPage);
    }
}
