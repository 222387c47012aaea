package org.loommpm.staticfiles.internal;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.loommpm.server.LoomServer;

/**
 * What the static-file handler's tests share: a server on 127.0.0.1:0 serving a fresh {@code root}
 * directory through {@link StaticFileHandler} ({@code index.html} as the index, precompressed
 * siblings on), and a client for it.
 */
final class SiteServer implements AutoCloseable {
    /** The served directory (real path), empty at first. */
    final Path root;
    private final LoomServer server;
    private final HttpClient client = HttpClient.newHttpClient();

    /**
     * @param dir the test's own directory; {@code root} is made in it
     * @param listing whether directories without an index are listed
     * @param valid how long the file cache trusts what it saw
     */
    SiteServer(Path dir, boolean listing, Duration valid) throws Exception {
        root = Files.createDirectories(dir.resolve("root")).toRealPath();
        TestSite site = new TestSite(root, List.of("index.html"), listing, false, true, valid, Map.of());
        StaticFileHandler files = new StaticFileHandler(site, null);
        server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler((req, res) -> files.serve(req, res, UrlPath.normalize(req, false))).start();
    }

    int port() {
        return server.port();
    }

    /** GETs {@code path} with the given header name/value pairs. */
    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        server.close();
    }
}
