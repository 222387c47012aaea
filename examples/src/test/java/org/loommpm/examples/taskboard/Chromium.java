package org.loommpm.examples.taskboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Headless Chromium driven through the DevTools protocol directly (no npm package): the browser
 * is started with {@code --remote-debugging-port=0}, announces its port in the profile's
 * {@code DevToolsActivePort} file, and each {@link Page} is a target whose WebSocket this class
 * speaks JSON-RPC on with the JDK's own WebSocket client. Only what the example's browser test
 * needs: open a page, evaluate script, wait for a condition, set a file input, take a screenshot.
 */
final class Chromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STEP = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();
    private final Path log;

    private Chromium(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** {@return the Chromium executable, or {@code null} where none is installed} */
    static String executable() {
        return List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").stream()
                .filter(p -> new File(p).canExecute()).findFirst().orElse(null);
    }

    /**
     * Starts a headless browser with a fresh profile in {@code dir}.
     *
     * @param executable the browser
     * @param dir a directory of the test's own for the profile and the browser's log
     */
    static Chromium launch(String executable, Path dir) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        Path log = dir.resolve("chromium.log");
        ProcessBuilder pb = new ProcessBuilder(executable, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--window-size=1200,900",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // Its singleton socket and other scratch files go under the test's directory too, not /tmp.
        pb.environment().put("TMPDIR", dir.toAbsolutePath().toString());
        Process p = pb.start();
        Path active = profile.resolve("DevToolsActivePort");
        long end = System.nanoTime() + STEP.toNanos();
        while (!Files.isRegularFile(active) || Files.readAllLines(active).isEmpty()) {
            if (!p.isAlive() || System.nanoTime() > end) {
                p.destroyForcibly();
                throw new IOException("chromium did not announce its DevTools port; its log: " + tail(log));
            }
            Thread.sleep(50);
        }
        return new Chromium(p, Integer.parseInt(Files.readAllLines(active).get(0).trim()), log);
    }

    /**
     * Opens a new tab on {@code url} (sharing this browser's cookies with the other tabs) and
     * waits for its load event.
     */
    Page open(String url) throws Exception {
        var req = java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/new?about:blank"))
                .PUT(java.net.http.HttpRequest.BodyPublishers.noBody()).build();
        JsonNode target = JSON.readTree(http.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body());
        Page page = new Page(http, URI.create(target.get("webSocketDebuggerUrl").asText()));
        page.call("Page.enable", Map.of());
        page.call("Runtime.enable", Map.of());
        page.navigate(url);
        return page;
    }

    /** {@return the end of the browser's own log, for a failure message} */
    String log() {
        return tail(log);
    }

    /** Ends the browser: asked first, forced after 10 s (or at once when this thread is interrupted). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(Path p) {
        try {
            String s = Files.readString(p);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** One tab, spoken to over its own DevTools WebSocket. Used by the test's thread only. */
    static final class Page implements WebSocket.Listener, AutoCloseable {
        private final WebSocket socket;
        private final AtomicInteger ids = new AtomicInteger();
        private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
        private final Map<String, CompletableFuture<JsonNode>> events = new ConcurrentHashMap<>();
        private final StringBuilder partial = new StringBuilder();

        private Page(HttpClient http, URI ws) {
            this.socket = http.newWebSocketBuilder().buildAsync(ws, this).join();
        }

        /** Sends one command and waits for its result; a protocol error fails the test. */
        JsonNode call(String method, Map<String, ?> params) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<JsonNode> answer = new CompletableFuture<>();
            pending.put(id, answer);
            ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
            msg.set("params", JSON.valueToTree(params));
            socket.sendText(JSON.writeValueAsString(msg), true).join();
            JsonNode reply = answer.get(STEP.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error"));
            }
            return reply.get("result");
        }

        /** Loads {@code url} and waits for its load event. */
        void navigate(String url) throws Exception {
            CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
            events.put("Page.loadEventFired", loaded);
            call("Page.navigate", Map.of("url", url));
            loaded.get(STEP.toSeconds(), TimeUnit.SECONDS);
        }

        /** Evaluates {@code js} in the page (awaiting a promise) and returns its value as JSON. */
        JsonNode eval(String js) throws Exception {
            JsonNode r = call("Runtime.evaluate", Map.of("expression", js, "awaitPromise", true, "returnByValue", true));
            if (r.has("exceptionDetails")) {
                throw new IllegalStateException("script failed: " + js + ": " + r.get("exceptionDetails"));
            }
            return r.path("result").path("value");
        }

        /**
         * Polls {@code condition} (a script expression) until it is true, at most 30 s. While the
         * page navigates, the condition may throw (an element not there yet) or find no context
         * to run in: that counts as not yet.
         */
        void waitFor(String what, String condition) throws Exception {
            long end = System.nanoTime() + STEP.toNanos();
            while (!holds(condition)) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("timed out waiting for " + what + " (" + condition + "); page: "
                            + eval("document.body ? document.body.innerText : ''").asText());
                }
                Thread.sleep(50);
            }
        }

        private boolean holds(String condition) throws Exception {
            try {
                return eval("(() => { try { return !!(" + condition + "); } catch (e) { return false; } })()").asBoolean();
            } catch (IllegalStateException navigating) {
                return false;
            }
        }

        /** Puts {@code file} into the file input {@code selector}, as a user choosing it would. */
        void setFile(String selector, Path file) throws Exception {
            int root = call("DOM.getDocument", Map.of()).path("root").path("nodeId").asInt();
            int node = call("DOM.querySelector", Map.of("nodeId", root, "selector", selector)).path("nodeId").asInt();
            if (node == 0) {
                throw new AssertionError("no element " + selector);
            }
            call("DOM.setFileInputFiles", Map.of("nodeId", node, "files", List.of(file.toAbsolutePath().toString())));
        }

        /** Writes a PNG of the page as it is now to {@code file}. */
        void screenshot(Path file) throws Exception {
            String png = call("Page.captureScreenshot", Map.of("format", "png")).get("data").asText();
            Files.createDirectories(file.getParent());
            Files.write(file, Base64.getDecoder().decode(png));
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode msg = JSON.readTree(partial.toString());
                    if (msg.has("id")) {
                        CompletableFuture<JsonNode> f = pending.remove(msg.get("id").asInt());
                        if (f != null) {
                            f.complete(msg);
                        }
                    } else if (msg.has("method")) {
                        CompletableFuture<JsonNode> f = events.remove(msg.get("method").asText());
                        if (f != null) {
                            f.complete(msg.path("params"));
                        }
                    }
                } catch (IOException e) {
                    pending.values().forEach(f -> f.completeExceptionally(e));
                }
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }
}
