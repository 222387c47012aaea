package org.loommpm.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * A request as the handler sees it. The head is parsed and validated before the handler runs;
 * the body is read on demand through {@link #body()} (a blocking read parks the handler's
 * virtual thread until the connection's poller reports more bytes). Valid only during the
 * handler call, on the handler's thread.
 */
public interface Request {
    /** {@return the method token, e.g. {@code GET}} */
    String method();

    /** {@return the request target exactly as sent (origin form, e.g. {@code /a%20b?x=1})} */
    String rawTarget();

    /**
     * The path without the query, percent-decoded (UTF-8) and normalised, the same for every
     * rule and handler that reads it: dot-segments resolved, empty segments dropped, each
     * segment's path parameters ({@code ;name=value}) left out, as Servlet containers match
     * paths. A target that cannot be read one way only (a {@code ..} above the root, a segment
     * ending in a dot or a space) was answered 400 before any handler ran.
     *
     * @return the path, starting with {@code /} ({@code *} for {@code OPTIONS *}, empty for CONNECT)
     */
    String path();

    /**
     * {@link #path()} percent-encoded again, with each segment's path parameters where the
     * client put them: what a reverse proxy sends on, so the backend serves the resource the
     * path named (and a Servlet container still finds {@code ;jsessionid=}).
     *
     * @return the encoded path, without the query
     */
    String encodedPath();

    /** {@return the raw query string without {@code ?}, or {@code null} when the target has none} */
    String query();

    /**
     * The first value of a query parameter (decoded), or {@code null}.
     *
     * @param name the parameter's name (decoded)
     * @return the value
     */
    default String queryParam(String name) {
        List<String> v = queryParams().get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** {@return every query parameter and its values, decoded, in order of first appearance} */
    Map<String, List<String>> queryParams();

    /**
     * A path template variable ({@code /users/{id}} gives {@code id}), or {@code null}.
     *
     * @param name the variable's name in the template
     * @return the value
     */
    String pathParam(String name);

    /** {@return every path template variable of the matched route, by name (empty when there are none)} */
    default Map<String, String> pathParams() {
        return Map.of();
    }

    /**
     * The protocol version the request is processed and answered as. A request line of a higher
     * HTTP/1 minor version than 1 ({@code HTTP/1.2} to {@code HTTP/1.9}) is served as HTTP/1.1
     * (RFC 9110 §2.5), so this says {@code HTTP/1.1} for it; {@link #rawProtocol()} says what
     * was sent.
     *
     * @return {@code HTTP/1.0}, {@code HTTP/1.1} or {@code HTTP/2.0}
     */
    String protocol();

    /**
     * The protocol version exactly as the request line sent it, as httpd's {@code %H} logs it
     * (and the access log's {@code %r} ends with it): the same as {@link #protocol()} except for a
     * higher HTTP/1 minor version, where this says e.g. {@code HTTP/1.2} and {@code protocol()}
     * {@code HTTP/1.1}. An HTTP/2 request has no request line: {@code HTTP/2.0}.
     *
     * @return the version as sent
     */
    default String rawProtocol() {
        return protocol();
    }

    /** {@return the request header fields (case-insensitive names)} */
    Headers headers();

    /**
     * Shorthand for {@code headers().first(name)}.
     *
     * @param name the field name (case-insensitive)
     * @return the first value, or {@code null}
     */
    default String header(String name) {
        return headers().first(name);
    }

    /** {@return the declared body length, or -1 when the body is chunked or absent} */
    long contentLength();

    /**
     * The body as a stream; empty when the request has none. Reading past LimitRequestBody
     * fails with an {@link HttpException} 413; malformed chunked framing with a 400.
     *
     * @return the body stream
     */
    InputStream body();

    /**
     * {@return the whole body, read up to LimitRequestBody}
     *
     * @throws IOException if the connection fails while the body is read
     */
    byte[] bodyBytes() throws IOException;

    /**
     * {@return the whole body as text, in the charset of its Content-Type (UTF-8 when none is given)}
     *
     * @throws IOException if the connection fails while the body is read
     */
    String bodyString() throws IOException;

    /**
     * Reads the body as JSON into {@code type} through the {@link org.loommpm.json.JsonCodec}
     * ({@link org.loommpm.json.JsonCodecs#find()}: module {@code loom-mpm-jackson} provides one),
     * streaming: the body is not held whole first. A record, a class with a default constructor,
     * {@code Map.class}, {@code String.class}, ... as the codec allows.
     *
     * <p>A request with a Content-Type other than {@code application/json} or
     * {@code application/*+json} is answered 415, one without a Content-Type is read as JSON. A
     * body that is not JSON or does not fit {@code type} is answered 400 with an
     * {@code application/problem+json} document ({@link Problem}) that names no internals; the
     * codec's own message goes to the log (LM2740). Call it once: it consumes the body.
     *
     * @param <T> the type read
     * @param type the class to read
     * @return the value ({@code null} for the JSON literal {@code null})
     * @throws HttpException 400 (LM2740) for a body that does not fit, 415 (LM2741) for another
     *     Content-Type; or the body's own failure (413 past LimitRequestBody, 400 malformed framing)
     * @throws IllegalStateException if no JSON codec is on the class path or module path
     * @throws IOException if the connection fails while the body is read
     */
    default <T> T json(Class<T> type) throws IOException {
        return Codecs.readJson(this, type);
    }

    /**
     * As {@link #json(Class)}, for a generic type: {@code List<Item>} as a
     * {@link java.lang.reflect.ParameterizedType} (e.g. from a type token's
     * {@code getGenericSuperclass()}).
     *
     * @param <T> the type read (unchecked: the caller says what {@code type} gives)
     * @param type the type to read
     * @return the value ({@code null} for the JSON literal {@code null})
     * @throws HttpException 400 (LM2740) for a body that does not fit, 415 (LM2741) for another
     *     Content-Type; or the body's own failure (413 past LimitRequestBody, 400 malformed framing)
     * @throws IllegalStateException if no JSON codec is on the class path or module path
     * @throws IOException if the connection fails while the body is read
     */
    default <T> T json(java.lang.reflect.Type type) throws IOException {
        return Codecs.readJson(this, type);
    }

    /**
     * The cookies the client sent ({@code Cookie} fields, RFC 6265bis), in order, read leniently
     * as browsers send them ({@link org.loommpm.cookie.CookieParser}: malformed pairs are
     * skipped). Parsed on each call.
     *
     * @return the cookies; empty when there are none
     * @throws HttpException 431 (LM2750) for more than
     *     {@link org.loommpm.cookie.CookieParser#DEFAULT_MAX_COOKIES} cookies
     */
    default List<org.loommpm.cookie.Cookie> cookies() {
        return Codecs.cookies(this);
    }

    /**
     * The value of the first cookie named {@code name} (names are case-sensitive).
     *
     * @param name the cookie's name
     * @return its value, or {@code null} when the client sent none of that name
     * @throws HttpException 431 (LM2750), as {@link #cookies()}
     */
    default String cookie(String name) {
        return Codecs.cookie(this, name);
    }

    /** {@return the client's address} */
    InetSocketAddress remoteAddress();

    /** {@return the local address the request arrived on} */
    InetSocketAddress localAddress();

    /**
     * Whether the request came over TLS (the {@code https} scheme): a TLS listener, whatever
     * the protocol version. Every protocol implements it.
     *
     * @return whether the request came over TLS
     */
    boolean isSecure();

    /**
     * Bytes of this request read from the connection so far: its head as received plus the body
     * bytes consumed, framing included (httpd's {@code %I}). -1 when the implementation does not
     * count.
     *
     * @return the bytes received, or -1
     */
    default long bytesReceived() {
        return -1;
    }
}
