package org.loommpm.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.loommpm.cli.config.ConfigParser;
import org.loommpm.cli.config.DirectiveTable;

/**
 * The jar's request path without the jar: a configuration text written to {@code dir/loom.conf},
 * read as {@code -f} reads it, and served in this JVM by a {@link ServerProcess} on 127.0.0.1 and
 * a free port (the text's own {@code Listen} lines are added to that one).
 */
final class SiteServer implements AutoCloseable {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final ServerProcess process;
    private final int port;

    private SiteServer(ServerProcess process) {
        this.process = process;
        this.port = process.server().port();
    }

    static SiteServer start(Path dir, String config) throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, "Listen 127.0.0.1:0\nCustomLog /dev/null common\n" + config);
        ConfigParser.Source src = new ConfigParser.Source(f, null, List.of(), List.of());
        ServerProcess p = new ServerProcess(() -> new ConfigParser(DirectiveTable.standard()).parse(src));
        if (!p.start(new ConfigParser(DirectiveTable.standard()).parse(src), false)) {
            throw new AssertionError("the server did not start (see the error log above)");
        }
        return new SiteServer(p);
    }

    /** The port it listens on (127.0.0.1). */
    int port() {
        return port;
    }

    /** The server's counts (per child, per poller). */
    org.loommpm.engine.EngineStats stats() {
        return org.loommpm.engine.EngineStats.of(process.server().stats());
    }

    /** A GET of {@code path} (sent as written). */
    HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        process.close();
    }
}
