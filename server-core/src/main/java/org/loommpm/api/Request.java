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
