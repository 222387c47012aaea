package org.loommpm.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.loommpm.api.Problem;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;

/**
 * {@code Request.json} and {@code Response.json} with Jackson found by {@code ServiceLoader},
 * against the JDK's HttpClient over HTTP/1.1 and h2c and raw HTTP/1.1: records round-trip; a
 * body that is not JSON, or not of the type, is a 400 problem document that says nothing of
 * Jackson while the log line has Jackson's message; another Content-Type is 415; a HEAD gets the
 * head alone; a large document is streamed (chunked), a small one has a Content-Length; the body's
 * own failure (413) is answered as such, not as bad JSON.
 */
class JsonExchangeTest {
    record Item(String name, int quantity) {
    }

    record Order(long id, List<Item> items) {
    }

    record Receipt(long order, int pieces, String protocol) {
    }

    /** Problem.of(400, ...)'s detail: the same for every bad body. */
    private static final String BAD_JSON = Problem.of(400,
            "The request body is not valid JSON or does not match the expected structure.").toJson();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static LoomServer server;

    enum Protocol {
        HTTP_1_1(HttpClient.Version.HTTP_1_1, "LM0406"), H2C(HttpClient.Version.HTTP_2, "LM0709");

        final HttpClient.Version version;
        final String logId;

        Protocol(HttpClient.Version version, String logId) {
            this.version = version;
            this.logId = logId;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)).limitRequestBody(64 * 1024))
                .handler(new Router()
                        .post("/orders", (req, res) -> {
                            Order o = req.json(Order.class);
                            res.status(201).json(new Receipt(o.id(),
                                    o.items().stream().mapToInt(Item::quantity).sum(), req.protocol()));
                        })
                        .route("HEAD", "/parse", (req, res) -> res.json(req.json(Item.class)))
                        .get("/ping", (req, res) -> res.send(req.protocol()))
                        .get("/big", (req, res) -> {
                            List<Item> items = new ArrayList<>();
                            for (int i = 0; i < 20_000; i++) {
                                items.add(new Item("item-" + i, i));
                            }
                            res.json(items);
                        })
                        .get("/broken", (req, res) -> res.json(List.of("fine", new Object()))))
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** A client of that version; for h2c, with the connection upgraded already (a GET without a body). */
    private static HttpClient client(Protocol p) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(p.version).build();
        HttpResponse<String> ping = client.send(HttpRequest.newBuilder(uri("/ping")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(p.version, ping.version());
        return client;
    }

    private static HttpResponse<String> post(HttpClient client, String contentType, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(uri("/orders")).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void recordsRoundTrip(Protocol p) throws Exception {
        HttpClient client = client(p);
        String order = MAPPER.writeValueAsString(new Order(42, List.of(new Item("pen", 2), new Item("pad", 3))));
        HttpResponse<String> r = post(client, "application/json; charset=utf-8", order);
        assertEquals(p.version, r.version());
        assertEquals(201, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(new Receipt(42, 5, p == Protocol.H2C ? "HTTP/2.0" : "HTTP/1.1"),
                MAPPER.readValue(r.body(), Receipt.class));
        // application/*+json is JSON too
        assertEquals(201, post(client, "application/vnd.example+json", order).statusCode());
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void invalidJsonIsA400ProblemAndTheLogHasJacksonsMessage(Protocol p) throws Exception {
        HttpClient client = client(p);
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> r = post(client, "application/json", "{\"id\": 1, \"items\": [ oops");
            assertEquals(400, r.statusCode());
            assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(BAD_JSON, r.body());
            assertEquals(String.valueOf(BAD_JSON.length()), r.headers().firstValue("Content-Length")
                    .orElse(String.valueOf(BAD_JSON.length())));
            String line = logged(log, p.logId, "LM2740");
            assertTrue(line.contains("Unrecognized token 'oops'"), line);
            assertFalse(r.body().contains("oops") || r.body().contains("jackson") || r.body().contains("Order"));
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void wrongTypesAreA400Problem(Protocol p) throws Exception {
        HttpClient client = client(p);
        for (String body : List.of("{\"id\": \"forty-two\", \"items\": []}", "[]", "{\"id\": 1, \"items\": [{\"quantity\": null}]}",
                "{\"id\": 1} trailing", "")) {
            HttpResponse<String> r = post(client, "application/json", body);
            assertEquals(400, r.statusCode(), body);
            assertEquals(BAD_JSON, r.body(), body);
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void anotherContentTypeIs415(Protocol p) throws Exception {
        HttpResponse<String> r = post(client(p), "text/plain", "{\"id\":1,\"items\":[]}");
        assertEquals(415, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(Problem.of(415, "The request body must be JSON (application/json).").toJson(), r.body());
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void headOfAFailingRequestIsTheHeadAlone(Protocol p) throws Exception {
        // An empty body is not JSON: 400, whose head carries the problem's length and type.
        HttpResponse<byte[]> r = client(p).send(HttpRequest.newBuilder(uri("/parse"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(400, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(0, r.body().length);
        if (p == Protocol.HTTP_1_1) {
            assertEquals(String.valueOf(BAD_JSON.length()), r.headers().firstValue("Content-Length").orElseThrow());
        }
    }

    @Test
    void headOverRawHttp11HasTheLengthAndNoBytes() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 2000)) {
            RawHttp.Response r = c.send("HEAD /parse HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(400, r.status());
            assertEquals(String.valueOf(BAD_JSON.length()), r.header("Content-Length"));
            assertTrue(c.closedByServer(), "no bytes after the head");
        }
    }

    @Test
    void aSmallDocumentHasAContentLengthALargeOneIsChunked() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response small = c.send("POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 21\r\n\r\n{\"id\":1,\"items\":[]}  ").read();
            assertEquals(201, small.status());
            assertEquals(String.valueOf(small.body().length), small.header("Content-Length"));
            RawHttp.Response big = c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(200, big.status());
            assertEquals("chunked", big.header("Transfer-Encoding"));
            Item[] items = MAPPER.readValue(big.body(), Item[].class);
            assertEquals(20_000, items.length);
            assertEquals(new Item("item-19999", 19999), items[19999]);
        }
    }

    @Test
    void aValueThatCannotBeWrittenIs500NotHalfADocument() throws Exception {
        try (LogCapture log = new LogCapture(); RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /broken HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(500, r.status());
            assertEquals("Internal Server Error\n", r.text());
            assertFalse(log.find(Level.SEVERE, "LM0401").isEmpty());
        }
    }

    @Test
    void aBodyOverLimitRequestBodyIs413NotBadJson() throws Exception {
        // Chunked, so the limit is found while the codec reads, inside Jackson.
        String json = "{\"id\":1,\"items\":[" + "{\"name\":\"n\",\"quantity\":1},".repeat(4000) + "{}]}";
        byte[] bytes = json.getBytes(StandardCharsets.US_ASCII);
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n");
            for (int off = 0; off < bytes.length; off += 4096) {
                int n = Math.min(4096, bytes.length - off);
                c.send(Integer.toHexString(n) + "\r\n");
                c.send(java.util.Arrays.copyOfRange(bytes, off, off + n));
                c.send("\r\n");
            }
            c.send("0\r\n\r\n");
            assertEquals(413, c.read().status());
        }
    }

    /** The formatted line logged under {@code id} whose text contains {@code inner}. */
    private static String logged(LogCapture log, String id, String inner) {
        for (LogRecord r : log.find(Level.FINE, id)) {
            String line = r.getParameters() == null ? r.getMessage() : MessageFormat.format(r.getMessage(), r.getParameters());
            if (line.contains(inner)) {
                return line;
            }
        }
        throw new AssertionError("no " + id + " line with " + inner);
    }
}
