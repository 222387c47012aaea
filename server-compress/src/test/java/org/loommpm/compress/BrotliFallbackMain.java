package org.loommpm.compress;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.loommpm.server.LoomServer;

/**
 * Run by {@link BrotliFallbackTest} in a JVM whose class path has brotli4j but not its native
 * artifact: it serves a compressible page with br and gzip configured, asks for it preferring
 * br, and prints what came back ({@code brotli=}, {@code encoding=}, {@code body=}).
 */
public final class BrotliFallbackMain {
    private BrotliFallbackMain() {
    }

    public static void main(String[] args) throws Exception {
        String page = "fallback ".repeat(500);
        CompressionFilter filter = new CompressionFilter(CompressionSettings.builder()
                .types(ContentCoding.BROTLI, "text/plain").types(ContentCoding.GZIP, "text/plain").build());
        try (LoomServer s = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(filter.around((req, res) -> res.header("Content-Type", "text/plain").send(page))).start()) {
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/"))
                            .header("Accept-Encoding", "br, gzip").build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String encoding = r.headers().firstValue("Content-Encoding").orElse("identity");
            byte[] body = r.body();
            if (encoding.equals("gzip")) {
                body = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
            }
            System.out.println("brotli=" + Brotli.available());
            System.out.println("encoding=" + encoding);
            System.out.println("body=" + page.equals(new String(body, StandardCharsets.UTF_8)));
        }
    }
}
