package org.loommpm.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The response to one request. Set the status and headers, then send exactly one body: with
 * {@link #send(byte[])} (Content-Length), through {@link #outputStream()} (Content-Length when
 * the whole body fits the write buffer, else chunked), or with {@link #sendFile(Path)}.
 * Writes that would block park the handler's virtual thread until the socket drains.
 * Valid only during the handler call, on the handler's thread.
 */
public interface Response {
    /**
     * Sets the status code (default 200).
     *
     * @param status the status code: 200-599, or 101 with a protocol upgrade
     * @return this response
     * @throws IllegalArgumentException for an interim 1xx (see {@link #sendInterim}) or a
     *     number without three digits
     * @throws IllegalStateException once the head is committed
     */
    Response status(int status);

    /** {@return the status code set so far} */
    int status();

    /**
     * Replaces a header field.
     *
     * @param name the field name
     * @param value the field value
     * @return this response
     */
    Response header(String name, String value);

    /** {@return the response header fields (mutable until the head is sent)} */
    Headers headers();

    /**
     * Sends the body with a Content-Length and completes the response.
     *
     * @param body the whole body
     * @throws IOException if the connection fails
     */
    void send(byte[] body) throws IOException;

    /**
     * Sends text as UTF-8 ({@code text/plain; charset=UTF-8} unless a Content-Type is set).
     *
     * @param body the whole body
     * @throws IOException if the connection fails
     */
    default void send(String body) throws IOException {
        if (!headers().contains("Content-Type")) {
            header("Content-Type", "text/plain; charset=UTF-8");
        }
        send(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sets the status and sends text.
     *
     * @param status the status code
     * @param body the whole body
     * @throws IOException if the connection fails
     */
    default void send(int status, String body) throws IOException {
        status(status);
        send(body);
    }

    /**
     * Sends {@code value} as JSON through the {@link org.loommpm.json.JsonCodec}
     * ({@link org.loommpm.json.JsonCodecs#find()}), streamed through {@link #outputStream()}
     * (a Content-Length when it fits the write buffer, else chunked), with the codec's media
     * type ({@code application/json}) unless a Content-Type is set. A value the codec cannot
     * write fails the handler ({@link org.loommpm.json.JsonCodecException}: 500 if nothing went
     * out yet, else the response is cut off, never completed half-written).
     *
     * @param value the value: a record, a collection, a map, ...; {@code null} sends {@code null}
     * @throws IllegalStateException if no JSON codec is on the class path or module path
     * @throws IOException if the connection fails
     */
    default void json(Object value) throws IOException {
        Codecs.writeJson(this, value);
    }

    /**
     * Adds a {@code Set-Cookie} field (one per cookie: they are never joined). Before the head
     * is sent.
     *
     * @param cookie the cookie, checked when it was built
     * @return this response
     * @throws IllegalStateException once the head is committed
     */
    default Response cookie(org.loommpm.cookie.SetCookie cookie) {
        if (isCommitted()) {
            throw new IllegalStateException("the response head is committed: Set-Cookie " + cookie.name() + " lost");
        }
        headers().add("Set-Cookie", cookie.toHeaderValue());
        return this;
    }

    /**
     * A stream for the body. Closing it completes the response. Bytes are buffered up to the
     * write buffer's size; if the stream is closed before that the response carries a
     * Content-Length, otherwise it switches to chunked transfer coding (HTTP/1.1) or to a
     * close-delimited body (HTTP/1.0). A Content-Length header set by the handler is honoured.
     *
     * @return the body stream
     * @throws IOException if the connection fails
     */
    OutputStream outputStream() throws IOException;

    /**
     * Sends a file as the body (zero-copy through {@code FileChannel.transferTo} where the
     * connection allows it) and completes the response. The Content-Type is left as set.
     *
     * @param file the file to send
     * @throws IOException if the file cannot be read (missing, a directory: found before the head
     *     is sent, so the handler can still answer) or the connection fails
     */
    void sendFile(Path file) throws IOException;

    /**
     * Sends {@code count} bytes of a file starting at {@code position} as the body (a byte range)
     * and completes the response, zero-copy where the connection allows it. The Content-Type is
     * left as set. This default streams the range through {@link #outputStream()} with a
     * Content-Length, for implementations without a zero-copy path.
     *
     * @throws IOException if the file cannot be read, or is shorter than {@code position + count}
     * @param file the file
     * @param position the offset of the first byte sent
     * @param count how many bytes to send
     * @throws IOException if the file cannot be read or the connection fails
     */
    default void sendFile(Path file, long position, long count) throws IOException {
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative range: " + position + "+" + count);
        }
        header("Content-Length", Long.toString(count));
        try (java.nio.channels.FileChannel fc = java.nio.channels.FileChannel.open(file);
             OutputStream out = outputStream()) {
            copyFileRange(fc, position, count, out);
        }
    }

    /**
     * Writes {@code count} bytes of {@code file} starting at {@code position} to {@code out},
     * through a heap buffer of at most 64 KiB: how a response without a zero-copy path, or one
     * that transforms the body (a compressing wrapper, a multipart/byteranges part), sends a
     * byte range. Neither the channel nor the stream is closed.
     *
     * @param file the open file
     * @param position the offset of the first byte written
     * @param count how many bytes to write
     * @param out where they go
     * @throws IOException if the file is shorter than {@code position + count}, or a read or a
     *     write fails
     */
    static void copyFileRange(java.nio.channels.FileChannel file, long position, long count, OutputStream out)
            throws IOException {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) Math.min(count, 64 * 1024));
        long pos = position;
        long end = position + count;
        while (pos < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - pos));
            int n = file.read(buf, pos);
            if (n < 0) {
                throw new IOException("file shrank while being sent");
            }
            out.write(buf.array(), 0, n);
            pos += n;
        }
    }

    /**
     * Sends trailer fields after the body (RFC 9110 §6.5), such as a checksum or gRPC's
     * {@code grpc-status}. {@code fields} is called once, on the thread that ends the body, when
     * the body's last byte has been handed over: in {@link #send(byte[])}, when the
     * {@link #outputStream()} is closed, in {@link #sendFile(Path)}, or when the handler returns
     * with the body unfinished; so the fields can tell what only the whole body tells.
     *
     * <p>On HTTP/1.1 the body then goes out with chunked transfer coding whatever its length (a
     * {@code Content-Length} set is still checked against the bytes written, but not sent), and
     * the fields follow the last chunk. On HTTP/2 they are a HEADERS frame with END_STREAM after
     * the last DATA frame. They are not sent, and {@code fields} is not called, where there is no
     * body to follow: a {@code HEAD} request, a 204 or 304, or an HTTP/1.0 client (no chunked
     * coding: the body is sent without them). {@link #sendFile(Path)} streams the file through the
     * response's stream (no zero-copy) when trailers are set. The server adds no {@code Trailer}
     * field: set one ({@code header("Trailer", "grpc-status, grpc-message")}) where the client
     * wants the names announced.
     *
     * <p>The fields are checked as head fields are, and none may be one that a trailer section must
     * not carry (RFC 9110 §6.5.1: the list of {@link Request#trailers()}). A bad field, or a
     * {@code fields} that throws, fails the exchange: the body is out by then, so the connection
     * is closed (HTTP/1.1) or the stream reset (HTTP/2) before the end of the body is signalled,
     * and the client sees an incomplete response rather than a complete one without trailers.
     * {@code fields} returning {@code null} or no field ends the body without trailers. A
     * response with trailers cannot be suspended: {@link #suspend()} and {@link #eventStream()}
     * then throw {@link IllegalStateException}.
     *
     * @param fields what gives the trailer fields once the body is complete; {@code null} to send none
     * @return this response
     * @throws IllegalStateException once the head is committed (its framing depends on this)
     * @throws UnsupportedOperationException where the implementation cannot send trailers
     */
    default Response trailers(java.util.function.Supplier<Headers> fields) {
        throw new UnsupportedOperationException("this response cannot send trailers");
    }

    /**
     * Sends an informational (1xx) response now, ahead of the final one: {@code 103 Early Hints}
     * (RFC 8297) with {@code Link} fields the client may preload while the handler still works,
     * or {@code 102 Processing}. Several may be sent; the final response follows as usual. An
     * HTTP/1.0 client gets none (RFC 9110 §15.2): the call then sends nothing and returns
     * {@code false}.
     *
     * @param status 102-199: 100 is the server's own answer to {@code Expect: 100-continue},
     *               101 comes with a protocol upgrade
     * @param fields the interim response's fields, copied (not Content-Length nor connection-specific ones)
     * @return whether it was sent: {@code false} for an HTTP/1.0 client
     * @throws IllegalArgumentException for another status or a field a 1xx may not carry
     * @throws IllegalStateException once the final response's head is committed
     * @throws UnsupportedOperationException where the implementation cannot send one
     * @throws IOException if the connection fails
     */
    default boolean sendInterim(int status, Headers fields) throws IOException {
        throw new UnsupportedOperationException("this response cannot send interim responses");
    }

    /**
     * Suspends this exchange: the handler may return without answering, and any thread answers
     * later through the returned handle (a long poll, an answer computed elsewhere). The worker
     * slot and the virtual thread are released as soon as the handler returns; the status and
     * headers set so far carry over. The deadline is {@code SuspendTimeout} (60 s by default).
     * Read the request body first: an unread body is discarded when the handler returns.
     *
     * @return the handle through which the exchange is answered later
     * @throws IllegalStateException if the response was already committed or suspended
     * @throws UnsupportedOperationException where the implementation cannot suspend
     */
    default SuspendedResponse suspend() {
        throw new UnsupportedOperationException("this response cannot be suspended");
    }

    /**
     * As {@link #suspend()}, with its own deadline instead of {@code SuspendTimeout}.
     *
     * @param timeout how long the exchange may stay suspended before it is answered 503
     * @return the handle through which any thread answers
     */
    default SuspendedResponse suspend(java.time.Duration timeout) {
        throw new UnsupportedOperationException("this response cannot be suspended");
    }

    /**
     * Turns this response into a Server-Sent Events stream ({@code text/event-stream}): the head
     * goes out at once, the handler returns, and events are sent from any thread (see
     * {@link EventStream}). The stream has no deadline; it ends when closed, when the client goes
     * away, or when the server stops.
     *
     * @return the stream, to send events on from any thread
     * @throws IllegalStateException if the response was already committed or suspended
     * @throws UnsupportedOperationException where the implementation cannot suspend
     * @throws IOException if the connection has ended
     */
    default EventStream eventStream() throws IOException {
        throw new UnsupportedOperationException("this response cannot stream events");
    }

    /** {@return whether the status line and headers have been written (then they can no longer change)} */
    boolean isCommitted();

    /**
     * Tells the server that the exchange is now being logged (an access log writing its line after
     * the response): the status page shows httpd's {@code L} in the worker's slot until the
     * exchange ends. A no-op where there is no scoreboard.
     */
    default void logging() {
    }

    /**
     * Bytes of this response written to the connection so far: status line, header fields, body
     * and transfer-coding framing (httpd's {@code %O}). For access logs: read it after the
     * handler chain returned. -1 when the implementation does not count.
     *
     * @return the bytes written, or -1
     */
    default long bytesSent() {
        return -1;
    }

    /**
     * Bytes of the body written so far, without the head or any framing: 0 for HEAD and for
     * statuses without a body (httpd's {@code %b}). -1 when the implementation does not count.
     *
     * @return the body bytes written, or -1
     */
    default long bodyBytesSent() {
        return -1;
    }
}
