package org.loommpm.examples.taskboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;

/** The example's HTTP API with the JDK's client (and its cookie store), as a script would use it. */
class TaskBoardApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private LoomServer server;
    private String base;
    private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

    @BeforeEach
    void start() throws Exception {
        server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(TaskBoard.routes(Map.of("ada", "lovelace"), Path.of("src/main/webapp"), dir)).start();
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path, String contentType, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> login(String password) throws Exception {
        return send("POST", "/login", "application/x-www-form-urlencoded",
                ("user=ada&password=" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theApiNeedsASessionAndAnswersAProblemDocumentWithout() throws Exception {
        HttpResponse<String> r = send("GET", "/api/tasks", null, null);
        assertEquals(401, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        assertEquals(401, JSON.readTree(r.body()).get("status").asInt());
        assertEquals(303, send("GET", "/", null, null).statusCode(), "the page sends a stranger to the login form");
    }

    @Test
    void aWrongPasswordSetsNoCookie() throws Exception {
        HttpResponse<String> r = login("babbage");
        assertEquals(303, r.statusCode());
        assertEquals("/login.html?failed", r.headers().firstValue("Location").orElse(""));
        assertTrue(r.headers().allValues("Set-Cookie").isEmpty());
        assertEquals(401, send("GET", "/api/me", null, null).statusCode());
    }

    @Test
    void createCompleteAttachDownloadAndDelete() throws Exception {
        HttpResponse<String> in = login("lovelace");
        assertEquals(303, in.statusCode());
        String cookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
        assertEquals("ada", JSON.readTree(send("GET", "/api/me", null, null).body()).get("user").asText());

        HttpResponse<String> created = send("POST", "/api/tasks", "application/json",
                "{\"title\":\"Write the docs\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(201, created.statusCode(), created.body());
        int id = JSON.readTree(created.body()).get("id").asInt();

        JsonNode done = JSON.readTree(send("PATCH", "/api/tasks/" + id, "application/json",
                "{\"done\":true}".getBytes(StandardCharsets.UTF_8)).body());
        assertTrue(done.get("done").asBoolean());

        byte[] file = new byte[300_000];
        new java.util.Random(7).nextBytes(file);
        String boundary = "----taskboard" + System.nanoTime();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nignored\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../etc/data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> up = send("POST", "/api/tasks/" + id + "/attachments",
                "multipart/form-data; boundary=" + boundary, body.toByteArray());
        assertEquals(200, up.statusCode(), up.body());
        JsonNode attachment = JSON.readTree(up.body()).get("attachments").get(0);
        assertEquals("data.bin", attachment.get("name").asText(), "the client's directories are dropped");
        assertEquals(file.length, attachment.get("size").asLong());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(file)),
                attachment.get("sha256").asText());

        HttpResponse<byte[]> down = client.send(HttpRequest.newBuilder(
                URI.create(base + "/api/tasks/" + id + "/attachments/data.bin")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, down.statusCode());
        assertTrue(java.util.Arrays.equals(file, down.body()));

        assertEquals(204, send("DELETE", "/api/tasks/" + id, null, null).statusCode());
        assertEquals(404, send("DELETE", "/api/tasks/" + id, null, null).statusCode());
    }

    @Test
    void badInputGetsPreciseStatuses() throws Exception {
        login("lovelace");
        HttpResponse<String> badJson = send("POST", "/api/tasks", "application/json", "{\"title\":".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, badJson.statusCode());
        assertEquals("application/problem+json", badJson.headers().firstValue("Content-Type").orElse(""));
        assertEquals(400, send("POST", "/api/tasks", "application/json", "{\"title\":\" \"}".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(415, send("POST", "/api/tasks", "text/plain", "title".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, send("PATCH", "/api/tasks/abc", "application/json", "{}".getBytes(StandardCharsets.UTF_8)).statusCode(),
                "an id that is not a number");
        assertEquals(404, send("PATCH", "/api/tasks/99", "application/json", "{}".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(201, send("POST", "/api/tasks", "application/json", "{\"title\":\"x\"}".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, send("POST", "/api/tasks/1/attachments", "multipart/form-data", new byte[0]).statusCode(),
                "multipart without a boundary");
    }

    @Test
    void anUploadPastItsLimitsIs413AndKeepsNothing() throws Exception {
        login("lovelace");
        assertEquals(201, send("POST", "/api/tasks", "application/json", "{\"title\":\"x\"}".getBytes(StandardCharsets.UTF_8)).statusCode());
        String boundary = "many";
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f")
                    .append(i).append(".txt\"\r\n\r\n").append(i).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        HttpResponse<String> r = send("POST", "/api/tasks/1/attachments", "multipart/form-data; boundary=" + boundary,
                body.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(413, r.statusCode(), "17 files, 16 allowed");
        assertEquals(0, JSON.readTree(send("GET", "/api/tasks", null, null).body()).get(0).get("attachments").size());
    }

    @Test
    void aForgedSessionCookieIsRefused() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/api/me"))
                .header("Cookie", TaskBoard.SESSION + "=YWRh.9999999999.forged").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode());
        assertNull(new Sessions(java.time.Clock.systemUTC(), java.time.Duration.ofHours(1)).user("YWRh.9999999999.forged"));
    }

    @Test
    void fileNamesAreMadeSafe() {
        assertEquals("data.bin", TaskBoard.safeName("../../etc/data.bin"));
        assertEquals("a_b.txt", TaskBoard.safeName("C:\\x\\a b.txt"));
        assertEquals("file.htaccess", TaskBoard.safeName(".htaccess"));
    }
}
