package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TestServers;

/** The filter in front of a router, with the JDK's client. */
class BasicAuthTest {
    private static final String APR1 = "$apr1$xjeY7NVz$k2Fn8dREua8I0FjFpZpum.";
    private static final String BCRYPT = "$2y$04$.hIKh9Kd.oj89bq6lnNuV.z8WIH.3zaM3ttGQhoXPv8.Xrvc3joEa";

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void answersAsModAuthBasic() throws Exception {
        Files.writeString(dir.resolve("htpasswd"), "alice:" + APR1 + "\nbob:" + BCRYPT + "\n");
        Files.writeString(dir.resolve("groups"), "staff: bob\n");
        LoginFailures failures = new LoginFailures();
        Router all = new Router()
                .filter(BasicAuth.builder().realm("Staff \"only\"").users(PasswordFile.open(dir.resolve("htpasswd")))
                        .failures(failures).build())
                .get("/who", (req, res) -> res.send(BasicAuth.user(req)));
        try (LoomServer s = TestServers.start(all)) {
            HttpResponse<String> none = get(s, "/who", null);
            assertEquals(401, none.statusCode());
            assertEquals("Basic realm=\"Staff \\\"only\\\"\"", none.headers().firstValue("WWW-Authenticate").orElseThrow());
            assertEquals(200, get(s, "/who", "alice:s3cret pass").statusCode());
            assertEquals("bob", get(s, "/who", "bob:hunter2").body());
            assertEquals(401, get(s, "/who", "bob:hunter3").statusCode());
            assertEquals(401, get(s, "/who", "nobody:hunter2").statusCode());
            assertEquals(2, failures.failures(java.net.InetAddress.getLoopbackAddress()));
        }
    }

    @Test
    void onlyTheAllowedUsersAndGroups() throws Exception {
        Files.writeString(dir.resolve("htpasswd"), "alice:" + APR1 + "\nbob:" + BCRYPT + "\n");
        Files.writeString(dir.resolve("groups"), "staff: bob\n");
        PasswordFile users = PasswordFile.open(dir.resolve("htpasswd"));
        GroupFile groups = GroupFile.open(dir.resolve("groups"));
        Router staff = new Router()
                .filter(BasicAuth.builder().realm("r").users(users).groups(groups).allowGroups("staff").build())
                .get("/x", (req, res) -> res.send("in"));
        try (LoomServer s = TestServers.start(staff)) {
            assertEquals(200, get(s, "/x", "bob:hunter2").statusCode());
            HttpResponse<String> alice = get(s, "/x", "alice:s3cret pass");
            assertEquals(401, alice.statusCode());
            assertEquals("Basic realm=\"r\"", alice.headers().firstValue("WWW-Authenticate").orElseThrow());
        }
        Router forbidden = new Router()
                .filter(BasicAuth.builder().realm("r").users(users).allowUsers("alice").forbiddenOnFailure(true).build())
                .get("/x", (req, res) -> res.send("in"));
        try (LoomServer s = TestServers.start(forbidden)) {
            assertEquals(200, get(s, "/x", "alice:s3cret pass").statusCode());
            HttpResponse<String> bob = get(s, "/x", "bob:hunter2");
            assertEquals(403, bob.statusCode());
            assertNull(bob.headers().firstValue("WWW-Authenticate").orElse(null));
        }
        assertThrows(IllegalArgumentException.class,
                () -> BasicAuth.builder().realm("r").users(users).allowGroups("staff").build());
    }

    @Test
    void aPasswordFileThatDisappearsIs500() throws Exception {
        Path f = dir.resolve("htpasswd");
        Files.writeString(f, "alice:" + APR1 + "\n");
        Router r = new Router()
                .filter(BasicAuth.builder().realm("r").users(PasswordFile.open(f)).build())
                .get("/x", (req, res) -> res.send("in"));
        try (LoomServer s = TestServers.start(r)) {
            assertEquals(200, get(s, "/x", "alice:s3cret pass").statusCode());
            Files.delete(f);
            PasswordFileTest.waitFor(() -> {
                try {
                    return get(s, "/x", "alice:s3cret pass").statusCode() == 500;
                } catch (Exception e) {
                    return false;
                }
            });
            assertEquals(500, get(s, "/x", "alice:s3cret pass").statusCode());
        }
    }

    private HttpResponse<String> get(LoomServer s, String path, String credentials) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path));
        if (credentials != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
