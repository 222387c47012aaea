package org.loommpm.http1;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Headers;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ProtocolConnection;

/**
 * A response body written as a stream. Bytes collect in the context's write buffer; if the
 * stream is closed before the buffer fills, the response goes out with a Content-Length in one
 * write. Otherwise the head is committed with chunked transfer coding (HTTP/1.1), with the
 * handler's own Content-Length if it set one, or close-delimited (HTTP/1.0), and each buffer-full
 * goes out as it fills. {@link #flush()} commits too: the handler asked for bytes on the wire.
 * Worker-owned.
 */
final class Http1OutputStream extends OutputStream {
    private enum Mode { BUFFERING, CHUNKED, FIXED, RAW }

    private static final byte[] CRLF = {'\r', '\n'};

    private final Http1Response response;
    private final ProtocolConnection connection;
    private final ByteBuffer staging;
    private final boolean discard;
    private Mode mode = Mode.BUFFERING;
    private long declared = -1;
    private long written;
    private boolean closed;
    /** The trailer fields, once asked for ({@link #endFields()}). */
    private Headers endFields;

    Http1OutputStream(Http1Response response, ProtocolConnection connection, ByteBuffer staging) {
        this.response = response;
        this.connection = connection;
        this.staging = staging.clear();
        this.discard = response.isHeadRequest() || response.bodyForbidden();
        String cl = response.headers().first("Content-Length");
        if (cl != null) {
            try {
                declared = Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid Content-Length set by handler: " + cl);
            }
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("response stream closed");
        }
        written += len;
        if (declared >= 0 && written > declared) {
            response.requireClose(CloseReason.ERROR);
            throw new IOException("body longer than the Content-Length set: " + declared);
        }
        if (discard) {
            if (mode == Mode.BUFFERING && staging.remaining() < len) {
                commitStreaming();
            }
            return;
        }
        if (staging.remaining() >= len) {
            staging.put(b, off, len);
            return;
        }
        if (mode == Mode.BUFFERING) {
            commitStreaming();
        }
        drain();
        if (len >= staging.capacity()) {
            writeDirect(ByteBuffer.wrap(b, off, len));
        } else {
            staging.put(b, off, len);
        }
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        if (mode == Mode.BUFFERING) {
            commitStreaming();
        }
        drain();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        if (mode == Mode.BUFFERING) {
            // Nothing is on the wire yet. A failure here (a short body, or an invalid header
            // rejected by encodeHead) leaves the stream open and the response uncommitted and
            // incomplete, so the handler's error (or finish() repeating it) can still be
            // answered with a 500 instead of a connection closed without any response.
            long length = declared >= 0 ? declared : written;
            if (!discard && declared >= 0 && written != declared) {
                response.requireClose(CloseReason.ERROR);
                throw new IOException("body shorter than the Content-Length set: " + written + " < " + declared);
            }
            if (response.trailing()) {
                closeWithTrailers();
                return;
            }
            ByteBuffer head = response.encodeHead(length, false, 0);
            closed = true;
            response.markComplete();
            response.writeComplete(head.flip(), staging.flip());
            return;
        }
        closed = true;
        response.markComplete();
        drain();
        if (mode == Mode.CHUNKED && !discard && declared >= 0 && written != declared) {
            // Chunked for trailers with a Content-Length set: held to it as a fixed body is.
            response.requireClose(CloseReason.ERROR);
            throw new IOException("body shorter than the Content-Length set: " + written + " < " + declared);
        } else if (mode == Mode.CHUNKED && !discard) {
            // The trailers' supplier runs now, after the last data went out: the whole body is known.
            connection.write(Http1Response.lastChunk(endFields()));
        } else if (mode == Mode.FIXED && !discard && written != declared) {
            response.requireClose(CloseReason.ERROR);
            throw new IOException("body shorter than the Content-Length set: " + written + " < " + declared);
        }
    }

    /**
     * The whole body fit the buffer, and it ends with trailers: one write of the head, the body as
     * one chunk, and the end with the trailer fields. The supplier runs before anything is
     * committed, so a bad field can still be answered with a 500.
     */
    private void closeWithTrailers() throws IOException {
        ByteBuffer end = Http1Response.lastChunk(endFields());
        ByteBuffer head = response.encodeHead(-1, true, 0);
        closed = true;
        response.markComplete();
        staging.flip();
        int n = staging.remaining();
        byte[] size = n == 0 ? new byte[0] : (Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer body = ByteBuffer.allocate(size.length + n + (n == 0 ? 0 : 2) + end.remaining());
        body.put(size).put(staging);
        if (n > 0) {
            body.put(CRLF);
        }
        body.put(end).flip();
        response.writeComplete(head.flip(), body);
    }

    /**
     * The trailer fields to end the body with, already asked for ({@code send} knows the whole
     * body first), else asked for now; {@code null} when the response has none.
     */
    private Headers endFields() {
        if (endFields == null && response.trailing()) {
            try {
                endFields = response.trailerFields();
            } catch (RuntimeException e) {
                // Once chunks are out the body cannot end well: the connection closes after the
                // exchange (an incomplete body), even if the handler catches this and returns.
                response.requireClose(CloseReason.ERROR);
                throw e;
            }
        }
        return endFields;
    }

    /** The trailer fields the body ends with, asked for before it was written. */
    void endWith(Headers fields) {
        endFields = fields;
    }

    /** Body bytes accepted for sending: 0 when the body is discarded (HEAD, 204, 304). */
    long bodyBytes() {
        return discard ? 0 : written;
    }

    /** The body outgrew the buffer (or was flushed): commit the head for a streamed body. */
    private void commitStreaming() throws IOException {
        ByteBuffer head;
        if (response.trailing()) {
            // Trailers follow the last chunk: chunked even with a Content-Length set (not sent,
            // but the body is still held to it).
            mode = Mode.CHUNKED;
            head = response.encodeHead(-1, true, 0);
        } else if (declared >= 0) {
            mode = Mode.FIXED;
            head = response.encodeHead(declared, false, 0);
        } else if (!response.bodyForbidden() && isHttp11()) {
            // A HEAD response too: it announces the chunked coding a GET would get, and its
            // writes are discarded (previously it became a Content-Length-less "fixed" body that
            // forced Connection: close and failed at close() against a length of -1).
            mode = Mode.CHUNKED;
            head = response.encodeHead(-1, true, 0);
        } else {
            // HTTP/1.0 (close-delimited), or a 204/304 whose writes are all discarded.
            mode = Mode.RAW;
            head = response.encodeHead(-1, false, 0);
        }
        response.flushBatch();
        connection.write(head.flip());
    }

    private boolean isHttp11() {
        return !response.isHttp10();
    }

    /** Sends what is staged, as one chunk in chunked mode. */
    private void drain() throws IOException {
        if (staging.position() == 0) {
            return;
        }
        staging.flip();
        writeDirect(staging);
        staging.clear();
    }

    private void writeDirect(ByteBuffer data) throws IOException {
        if (discard) {
            return;
        }
        if (mode == Mode.CHUNKED) {
            byte[] size = (Integer.toHexString(data.remaining()) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            connection.write(new ByteBuffer[] {ByteBuffer.wrap(size), data, ByteBuffer.wrap(CRLF)});
        } else {
            connection.write(data);
        }
    }
}
