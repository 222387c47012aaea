package org.loommpm.tracing;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import java.net.InetSocketAddress;
import java.util.Locale;
import org.loommpm.api.Request;

/**
 * The default names of a server request's observation, after OpenTelemetry's HTTP semantic
 * conventions (HTTP server spans). Name {@code http.server.requests}; contextual (span) name
 * {@code METHOD route}, or {@code METHOD} when no {@code Router} template matched.
 *
 * <p>Low-cardinality keys (always present, so a meter handler keeps one tag set):
 * {@code http.request.method} (a standard method, else {@code _OTHER}),
 * {@code http.route} (the template, else {@code UNKNOWN}), {@code http.response.status_code},
 * {@code url.scheme}, {@code network.protocol.name} ({@code http}),
 * {@code network.protocol.version} ({@code 1.1}, {@code 2}), {@code error.type} (the
 * exception's class, else the status for 5xx, else {@code none}).
 * High-cardinality keys (span attributes, never meter tags): {@code url.path},
 * {@code server.address} and {@code server.port} (the {@code Host} the client named, else the
 * local address), {@code client.address} and {@code client.port} (the peer), and
 * {@code user_agent.original} when sent.
 *
 * <p>An application registers its own {@code GlobalObservationConvention<ServerRequestContext>}
 * on the registry to change them.
 */
public class ServerRequestConvention implements ObservationConvention<ServerRequestContext> {
    /** The observation's name. */
    public static final String NAME = "http.server.requests";
    /** The placeholder of a low-cardinality value that is not known. */
    static final String UNKNOWN = "UNKNOWN";

    /** The default convention (subclass it to change a name or add a key). */
    public ServerRequestConvention() {
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof ServerRequestContext;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ServerRequestContext context) {
        String method = method(context.getCarrier());
        return context.route() != null ? method + " " + context.route() : method;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestContext context) {
        Request req = context.getCarrier();
        int status = context.status();
        Throwable error = context.getError();
        String errorType = error != null ? error.getClass().getName()
                : status >= 500 ? Integer.toString(status) : "none";
        return KeyValues.of(
                KeyValue.of("http.request.method", method(req)),
                KeyValue.of("http.route", context.route() != null ? context.route() : UNKNOWN),
                KeyValue.of("http.response.status_code", status > 0 ? Integer.toString(status) : UNKNOWN),
                KeyValue.of("url.scheme", req.isSecure() ? "https" : "http"),
                KeyValue.of("network.protocol.name", "http"),
                KeyValue.of("network.protocol.version", version(req.protocol())),
                KeyValue.of("error.type", errorType));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ServerRequestContext context) {
        Request req = context.getCarrier();
        InetSocketAddress peer = req.remoteAddress();
        String[] server = server(req);
        KeyValues kv = KeyValues.of(
                KeyValue.of("url.path", req.path()),
                KeyValue.of("server.address", server[0]),
                KeyValue.of("server.port", server[1]),
                KeyValue.of("client.address", peer != null ? peer.getAddress().getHostAddress() : UNKNOWN),
                KeyValue.of("client.port", peer != null ? Integer.toString(peer.getPort()) : UNKNOWN));
        String agent = req.header("User-Agent");
        return agent != null ? kv.and(KeyValue.of("user_agent.original", agent)) : kv;
    }

    /** The method, or {@code _OTHER} for one outside RFC 9110 and RFC 5789 (unbounded values). */
    static String method(Request req) {
        String m = req.method();
        return switch (m) {
            case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH" -> m;
            default -> "_OTHER";
        };
    }

    /** {@code HTTP/1.1} as {@code 1.1}, {@code HTTP/2.0} and {@code HTTP/2} as {@code 2}. */
    static String version(String protocol) {
        String v = protocol.regionMatches(true, 0, "HTTP/", 0, 5) ? protocol.substring(5) : protocol;
        return v.equals("2.0") ? "2" : v;
    }

    /** Host and port the client addressed ({@code Host}, or {@code :authority} in HTTP/2), else the local ones. */
    static String[] server(Request req) {
        InetSocketAddress local = req.localAddress();
        String defaultPort = local != null ? Integer.toString(local.getPort()) : UNKNOWN;
        String host = req.header("Host");
        if (host == null || host.isEmpty()) {
            return new String[] {local != null ? local.getAddress().getHostAddress() : UNKNOWN, defaultPort};
        }
        int colon = host.lastIndexOf(':');
        int bracket = host.lastIndexOf(']');
        if (colon > bracket && colon > 0) {
            return new String[] {hostName(host.substring(0, colon)), host.substring(colon + 1)};
        }
        return new String[] {hostName(host), req.isSecure() ? "443" : "80"};
    }

    /** A Host's name lower-cased, an IPv6 literal without its brackets. */
    private static String hostName(String h) {
        String n = h.length() > 1 && h.charAt(0) == '[' && h.charAt(h.length() - 1) == ']' ? h.substring(1, h.length() - 1) : h;
        return n.toLowerCase(Locale.ROOT);
    }
}
