package org.loommpm.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.loommpm.form.FormData;
import org.loommpm.form.FormException;
import org.loommpm.form.FormLimits;
import org.loommpm.form.UrlEncodedForm;
import org.loommpm.multipart.MultipartException;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.MultipartReader;

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
     * A path template variable converted to {@code type}: {@code req.pathParam("id", int.class)}.
     * Takes {@code String}, {@code int}, {@code long}, {@code double}, {@code boolean} (or their
     * wrappers), {@link java.util.UUID} (the canonical 36 characters) and enums (by constant
     * name; without regard to case when that names one constant only). Numbers are ASCII decimal
     * digits, a boolean is {@code true} or {@code false} (any case).
     *
     * @param <T> the type asked for
     * @param name the variable's name in the template
     * @param type the class to convert to, e.g. {@code int.class} or {@code Color.class}
     * @return the converted value, never null
     * @throws HttpException 400 (log id LM2760) if the value is not of the type: the client's error
     * @throws IllegalArgumentException if the matched route has no such variable (a mistake in the
     *     code: answered 500), or the type is not one of those above
     */
    default <T> T pathParam(String name, Class<T> type) {
        TypedParams.check(type);
        String v = pathParam(name);
        if (v == null) {
            throw new IllegalArgumentException("no path parameter '" + name + "' in the matched route; it has "
                    + pathParams().keySet());
        }
        return TypedParams.convert(v, type, "LM2760", "path", name);
    }

    /**
     * The first value of a query parameter converted to {@code type}, as
     * {@link #pathParam(String, Class)} converts. An absent parameter is {@code null} for a class
     * type ({@code Integer.class}: optional) and a 400 for a primitive one ({@code int.class}:
     * required, since {@code null} cannot be one). A parameter given without a value
     * ({@code ?n} or {@code ?n=}) has the value {@code ""}, which only {@code String} takes.
     *
     * @param <T> the type asked for
     * @param name the parameter's name (decoded)
     * @param type the class to convert to
     * @return the converted value, or null when the parameter is absent and {@code type} is not primitive
     * @throws HttpException 400 if the value is not of the type (log id LM2761), or a primitive
     *     type's parameter is absent (LM2762)
     * @throws IllegalArgumentException if the type is not one {@link #pathParam(String, Class)} takes
     */
    default <T> T queryParam(String name, Class<T> type) {
        TypedParams.check(type);
        String v = queryParam(name);
        if (v == null) {
            if (type.isPrimitive()) {
                throw new HttpException(400, "LM2762 query parameter '" + name + "' is required ("
                        + type.getName() + ") but absent");
            }
            return null;
        }
        return TypedParams.convert(v, type, "LM2761", "query", name);
    }

    /**
     * The media type to answer with, from this request's {@code Accept} fields (RFC 9110
     * §12.5.1): the offer with the highest q-value, a more specific range winning a tie, then the
     * order given; the first offer when the request has no {@code Accept}. See
     * {@link org.loommpm.negotiation.Negotiation#preferredType(String, String...)}.
     *
     * @param offered the media types the handler can send, in its order of preference
     * @return one of {@code offered}, or null when the client accepts none of them (see
     *     {@link #negotiateType(String...)} for a 406)
     * @throws IllegalArgumentException if an offer is not a media type
     */
    default String preferredType(String... offered) {
        return org.loommpm.negotiation.Negotiation.preferredType(TypedParams.joined(headers(), "Accept"), offered);
    }

    /**
     * As {@link #preferredType(String...)}, for a handler that cannot answer otherwise.
     *
     * @param offered the media types the handler can send, in its order of preference
     * @return one of {@code offered}
     * @throws HttpException 406 Not Acceptable (log id LM2763) when the client accepts none
     * @throws IllegalArgumentException if an offer is not a media type
     */
    default String negotiateType(String... offered) {
        String t = preferredType(offered);
        if (t == null) {
            throw new HttpException(406, "LM2763 no offered type (" + String.join(", ", offered)
                    + ") is acceptable to Accept: " + TypedParams.joined(headers(), "Accept"));
        }
        return t;
    }

    /**
     * The locale to answer in, from this request's {@code Accept-Language} fields (RFC 9110
     * §12.5.4, RFC 4647 basic filtering, then lookup's truncation so that {@code de} answers a
     * client asking only {@code de-CH}); the first offer when the request has none. See
     * {@link org.loommpm.negotiation.Negotiation#preferredLocale(String, java.util.Locale...)}.
     *
     * @param offered the locales the handler can answer in, in its order of preference
     * @return one of {@code offered}, or null when the client accepts none (then answer in a
     *     default: a language mismatch is rarely worth a 406)
     */
    default java.util.Locale preferredLocale(java.util.Locale... offered) {
        return org.loommpm.negotiation.Negotiation.preferredLocale(
                TypedParams.joined(headers(), "Accept-Language"), offered);
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
     * The request's trailer fields (RFC 9110 §6.5): what a chunked HTTP/1.1 body, or an HTTP/2
     * request's trailing HEADERS frame, carried after the body (a checksum, a status). Empty until
     * the {@link #body()} has been read to its end (a read returned -1, as {@link #bodyBytes()}
     * does), and when the client sent none. They count against the limits of the head's fields
     * ({@code LimitRequestFields} and {@code LimitRequestFieldSize} on HTTP/1.1, 431 past them;
     * {@code H2MaxHeaderListSize} on HTTP/2). Fields no trailer section may carry (framing,
     * routing, authentication, request modifiers, {@code Content-Type} and the like: RFC 9110
     * §6.5.1; the list is in docs/api.md) are dropped as they arrive, logged at DEBUG (LM2780),
     * so a trailer can never change how the request was framed or routed.
     *
     * @return the trailer fields, names case-insensitive (not to be modified)
     */
    default Headers trailers() {
        return new Headers(1);
    }

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
     * What the TLS connection this request came over negotiated: protocol version, cipher suite,
     * the SNI host name, the ALPN protocol, and the client's certificate chain when the server
     * asked for one ({@code SSLVerifyClient}, see {@code TlsSettings.verifyClient}) and the client
     * sent one that verified. HTTP/1.1 and HTTP/2 alike.
     *
     * @return the connection's TLS details, or empty when it is not TLS ({@link #isSecure()} false)
     */
    default java.util.Optional<TlsInfo> tls() {
        return java.util.Optional.empty();
    }

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

    /**
     * Attributes of this exchange: what a filter hands to the handlers after it (the user it
     * authenticated, say), and what the request's own methods cache ({@link #form()} and
     * {@link #multipart()} read the body once). A new, empty map per exchange: the next request
     * on the same connection, or another HTTP/2 stream, never sees it. Created on first use;
     * every wrapper of a request returns its delegate's map. Not thread-safe, like the request.
     * Keys starting with {@code org.loommpm.} are the server's.
     *
     * @return the mutable attributes of this exchange
     */
    Map<String, Object> attributes();

    /**
     * The body as an {@code application/x-www-form-urlencoded} form, within
     * {@link FormLimits#DEFAULTS} (64 KiB, 1,000 fields). See {@link #form(FormLimits)}.
     *
     * @return the fields, in the order sent
     * @throws HttpException 400, 413 or 415 as {@link #form(FormLimits)} says
     * @throws IOException if the connection fails while the body is read
     */
    default FormData form() throws IOException {
        return form(FormLimits.DEFAULTS);
    }

    /**
     * The body as an {@code application/x-www-form-urlencoded} form (an HTML form's POST):
     * read and decoded on the first call, then cached in {@link #attributes()}, so every filter
     * and handler may ask (a later call returns the first call's form, whatever its limits). The
     * charset is the Content-Type's, else a {@code _charset_} field's, else UTF-8. The query
     * string is not part of it: see {@link #queryParams()}.
     *
     * @param limits the most bytes read and fields decoded
     * @return the fields, in the order sent
     * @throws HttpException 415 when the Content-Type is not {@code application/x-www-form-urlencoded}
     *         (LM2703) or names a charset the JDK does not know (LM2704); 413 past the byte
     *         (LM2701, at once when the Content-Length says so) or field (LM2702) limit, or past
     *         LimitRequestBody; 400 for malformed percent-encoding (LM2700)
     * @throws IOException if the connection fails while the body is read
     */
    default FormData form(FormLimits limits) throws IOException {
        Map<String, Object> attributes = attributes();
        if (attributes.get(FormData.class.getName()) instanceof FormData cached) {
            return cached;
        }
        String type = header("Content-Type");
        if (!UrlEncodedForm.isForm(type)) {
            throw new HttpException(415, "LM2703 not a form body: Content-Type "
                    + (type == null ? "absent" : "'" + type.replaceAll("\\p{Cntrl}", "?") + "'"));
        }
        if (contentLength() > limits.maxBytes()) {
            throw new HttpException(413, "LM2701 form body of " + contentLength() + " bytes larger than its limit of "
                    + limits.maxBytes() + " bytes");
        }
        try {
            FormData form = UrlEncodedForm.decode(body(), UrlEncodedForm.charsetOf(type), limits.maxBytes(),
                    limits.maxFields());
            attributes.put(FormData.class.getName(), form);
            return form;
        } catch (FormException e) {
            throw new HttpException(e.status(), e.getMessage());
        }
    }

    /**
     * The body as {@code multipart/form-data} (file uploads), within
     * {@link MultipartLimits#DEFAULTS}. See {@link #multipart(MultipartLimits)}.
     *
     * @return the reader of this request's parts
     * @throws HttpException 415 or 400 as {@link #multipart(MultipartLimits)} says
     */
    default MultipartReader multipart() {
        return multipart(MultipartLimits.DEFAULTS);
    }

    /**
     * The body as {@code multipart/form-data} (RFC 7578): a reader that parses it as the handler
     * asks for parts, streaming, or storing them in memory and temporary files
     * ({@link MultipartReader}). Made on the first call and cached in {@link #attributes()} (a
     * later call returns it, whatever its limits). The server closes it when the handler's call
     * ends, however it ends (returned, thrown, the client gone), which deletes its temporary
     * files: parts are valid during the call, {@link org.loommpm.multipart.Part#saveTo} keeps one.
     * Failures while reading parts are {@link MultipartException}s, which the server answers
     * with their status (400, 413, 415) as it answers an {@link HttpException}.
     *
     * @param limits the limits, and where to spool stored parts
     * @return the reader of this request's parts
     * @throws HttpException 415 when the Content-Type is not {@code multipart/form-data} (LM2722),
     *         400 when its boundary is missing (LM2720) or invalid (LM2721)
     */
    default MultipartReader multipart(MultipartLimits limits) {
        Map<String, Object> attributes = attributes();
        if (attributes.get(MultipartReader.class.getName()) instanceof MultipartReader cached) {
            return cached;
        }
        try {
            MultipartReader reader = MultipartReader.of(body(), header("Content-Type"), limits);
            attributes.put(MultipartReader.class.getName(), reader);
            return reader;
        } catch (MultipartException e) {
            throw new HttpException(e.status(), e.getMessage());
        }
    }
}
