package org.loommpm.compress;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * Compression on the fly (httpd's mod_deflate and mod_brotli): gzip or brotli, chosen by
 * {@code Accept-Encoding}, for the media types {@link CompressionSettings} names. A {@code HEAD}
 * is treated as its {@code GET} (the server drops the body), so that it carries the same
 * {@code Content-Encoding}, {@code Content-Length}, {@code ETag} and {@code Vary} (RFC 9110
 * §9.3.2; a cache freshening a stored GET from a HEAD compares them, RFC 9111 §4.3.5). Never for
 * a {@code Range} request (the ranges would address the coded bytes), nor for one
 * asking a protocol upgrade other than {@code h2c} (a 101 hands the server's own response over
 * to another protocol, which a wrapped one cannot do: a WebSocket or a proxied tunnel); the
 * response-side rules are {@link CompressingResponse}'s. Embedded:
 *
 * <pre>{@code
 * CompressionFilter gzip = new CompressionFilter(CompressionSettings.builder()
 *         .types(ContentCoding.GZIP, "text/html", "application/json")
 *         .types(ContentCoding.BROTLI, "text/html", "application/json").build());
 * router.filter(gzip);   // or gzip.around(handler)
 * }</pre>
 *
 * Stateless: one instance serves every request, any thread.
 */
public final class CompressionFilter implements Filter {
    private final Function<Request, CompressionSettings> settings;

    /**
     * A filter applying {@code settings}.
     *
     * @param settings what to compress, and how hard
     */
    public CompressionFilter(CompressionSettings settings) {
        Objects.requireNonNull(settings, "settings");
        this.settings = req -> settings;
    }

    /**
     * A filter whose settings depend on the request: per-path scopes, as the CLI's
     * {@code <Location>} sections give ({@code perRequest} runs once per request, on its worker;
     * it must be fast and thread-safe).
     *
     * @param perRequest the settings for a request
     */
    public CompressionFilter(Function<Request, CompressionSettings> perRequest) {
        this.settings = Objects.requireNonNull(perRequest, "perRequest");
    }

    /**
     * This filter around {@code next}, as one handler (for use without a router).
     *
     * @param next the handler whose responses are compressed
     * @return the wrapped handler
     */
    public Handler around(Handler next) {
        return (req, res) -> filter(req, res, next);
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        CompressionSettings settings = this.settings.apply(request);
        if (!settings.enabled() || request.headers().contains("Range")
                || asksUpgrade(request)) {
            next.handle(request, response);
            return;
        }
        List<String> accept = request.headers().all("Accept-Encoding");
        String joined = accept.isEmpty() ? null : accept.size() == 1 ? accept.get(0) : String.join(",", accept);
        CompressingResponse coded = new CompressingResponse(response, joined, settings, request.method().equals("HEAD"));
        next.handle(request, coded);
        coded.complete();
    }

    /**
     * Whether the request asks to switch protocols (WebSocket, a proxied tunnel): its answer may
     * be a 101, and only the server's own response can hand the connection over. {@code h2c} is
     * not counted: clients (the JDK's among them) ask it of every cleartext request, and a server
     * that does not take it up answers as usual.
     */
    private static boolean asksUpgrade(Request request) {
        return request.headers().hasToken("Connection", "upgrade") && request.headers().contains("Upgrade")
                && !request.headers().hasToken("Upgrade", "h2c");
    }
}
