package org.loommpm.http;

import org.loommpm.api.Headers;
import org.loommpm.spi.SlotBoard;

/**
 * A parsed and validated HTTP/1.x request head, with the framing and connection decisions
 * ({@link #contentLength()}, {@link #chunked()}, {@link #keepAlive()}) already made, so the
 * engine acts on them without re-reading header fields. Built by the HTTP/1.1 parser; shared
 * because an {@code Upgrade: h2c} request is handed to HTTP/2 as one
 * ({@link Http2Protocol#serveUpgrade}). Immutable except for its headers, which belong to the
 * worker handling the exchange.
 */
public final class RequestHead implements SlotBoard.RequestInfo {
    /**
     * The protocol versions a request is processed as. A request line of a higher HTTP/1 minor
     * version ({@code HTTP/1.2} to {@code HTTP/1.9}) is {@link #HTTP_1_1} (RFC 9110 §2.5); what
     * it said is kept in {@link #versionAsSent()}.
     */
    public enum Version {
        HTTP_1_0("HTTP/1.0"),
        HTTP_1_1("HTTP/1.1");

        private final String text;

        Version(String text) {
            this.text = text;
        }

        /** As on the wire, e.g. {@code HTTP/1.1}. */
        public String text() {
            return text;
        }
    }

    private final String method;
    private final String rawTarget;
    private final String path;
    private final String encodedPath;
    private final String query;
    private final Version version;
    private final String versionAsSent;
    private final Headers headers;
    private final long contentLength;
    private final boolean chunked;
    private final boolean keepAlive;
    private final boolean expectContinue;
    private final String host;

    /**
     * A head whose fields the parser has validated and whose framing it has decided.
     *
     * @param path see {@link #path()}
     * @param encodedPath see {@link #encodedPath()}
     * @param versionAsSent see {@link #versionAsSent()}
     * @param contentLength the declared length, or -1
     * @param host see {@link #host()}
     */
    public RequestHead(String method, String rawTarget, String path, String encodedPath, String query,
            Version version, String versionAsSent, Headers headers, long contentLength, boolean chunked,
            boolean keepAlive, boolean expectContinue, String host) {
        this.method = method;
        this.rawTarget = rawTarget;
        this.path = path;
        this.encodedPath = encodedPath;
        this.query = query;
        this.version = version;
        this.versionAsSent = versionAsSent;
        this.headers = headers;
        this.contentLength = contentLength;
        this.chunked = chunked;
        this.keepAlive = keepAlive;
        this.expectContinue = expectContinue;
        this.host = host;
    }

    /** The method token, case-sensitive, e.g. {@code GET}. */
    public String method() {
        return method;
    }

    /** The request target exactly as sent. */
    public String rawTarget() {
        return rawTarget;
    }

    /**
     * The path without the query, percent-decoded (UTF-8) and normalised ({@link RequestPath#path}):
     * from origin- or absolute-form targets; {@code *} for {@code OPTIONS *}; empty for CONNECT's
     * authority-form.
     */
    public String path() {
        return path;
    }

    /** The normalised path encoded again, with its path parameters ({@link RequestPath#encoded}). */
    public String encodedPath() {
        return encodedPath;
    }

    /** The raw query after {@code ?}, or {@code null} when the target has no {@code ?}. */
    public String query() {
        return query;
    }

    /** The version the request is processed (and answered) as. */
    public Version version() {
        return version;
    }

    /**
     * The version as the request line sent it, {@code HTTP/1.0} to {@code HTTP/1.9}: the text of
     * {@link #version()} except for a higher minor version than 1, such as {@code HTTP/1.2}.
     */
    public String versionAsSent() {
        return versionAsSent;
    }

    /** The header fields in arrival order. */
    public Headers headers() {
        return headers;
    }

    /** The declared Content-Length, or -1 when absent (and always when {@link #chunked()}). */
    public long contentLength() {
        return contentLength;
    }

    /** Whether the body is framed by the chunked transfer coding. */
    public boolean chunked() {
        return chunked;
    }

    /** Whether the client allows another request on this connection after this one. */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** Whether an HTTP/1.1 client waits for {@code 100 Continue} before sending the body. */
    public boolean expectContinue() {
        return expectContinue;
    }

    /**
     * The target host: the authority of an absolute-form or authority-form target (which wins
     * over Host, RFC 9112 §3.2.2), else the Host field value (possibly empty); {@code null} for
     * an HTTP/1.0 request without Host.
     */
    public String host() {
        return host;
    }

    /** The request line as received. */
    @Override
    public String toString() {
        return method + ' ' + rawTarget + ' ' + versionAsSent;
    }
}
