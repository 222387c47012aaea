package org.loommpm.http1;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.loommpm.api.Headers;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.SuspendedExchange;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;

/**
 * A suspended HTTP/1.1 exchange: what any thread sends is encoded here (the head into a buffer
 * of its own, a streamed body as chunks, or close-delimited for HTTP/1.0) and queued on the
 * connection's {@link OutboundQueue}, which its poller writes while the connection is DETACHED.
 * When the exchange ends, a {@link ProtocolConnection#signal} brings the connection back to
 * {@link Http1Protocol}, on the poller where it can (else on a worker), which counts the
 * exchange and reads the next request, or closes the connection if this response said so.
 *
 * <p>Threads: the encoders run under the exchange's lock on whichever thread sends; the fields
 * below the lock are written by the serving worker before {@link #start()} and read by the
 * worker that resumes the connection (published by the hand-off and the signal).
 */
final class Http1Suspension extends SuspendedExchange {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private enum Mode { CHUNKED, FIXED, RAW, DISCARD }

    final Http1Response res;
    private final ProtocolConnection connection;
    private final OutboundQueue out;
    /** How the streamed body goes out; decided with the head. Under the lock. */
    private Mode mode;
    /** {@link Mode#FIXED}: the bytes of the announced Content-Length not yet queued. Under the lock. */
    private long owed;

    /** The request as counted when the exchange ends: its version, method, bytes and start. */
    String version;
    String method;
    long bytesReceived;
    long startNanos;
    /** Whether the connection may serve another request once this one is answered (its body was read whole). */
    boolean reusable;

    /**
     * The connection's session while HTTP/1.1 serves it, once a request on it suspended: the
     * suspended exchange now ({@code null} between them), and the one hook on the connection's
     * end, registered once per connection (a hook per suspension would pile up on a keep-alive
     * connection that long-polls for hours). The owner writes {@link #current}; the thread ending
     * the connection reads it.
     */
    static final class Holder {
        volatile Http1Suspension current;

        Holder(ProtocolConnection connection) {
            connection.outbound().closed().thenRun(this::connectionEnded);
        }

        private void connectionEnded() {
            Http1Suspension s = current;
            if (s != null) {
                s.clientGone();
            }
        }
    }

    Http1Suspension(Http1Response res, ProtocolConnection connection, long deadlineNanos, StreamingLimits limits,
                    boolean eventStream) {
        super(res, connection.services(), deadlineNanos, limits.gracefulShutdownNanos(), eventStream);
        this.res = res;
        this.connection = connection;
        this.out = connection.outbound();
    }

    @Override
    protected void queueWhole(byte[] body) throws IOException {
        boolean noBody = res.bodyForbidden() || res.isHeadRequest();
        ByteBuffer head = res.encodeHead(res.bodyForbidden() ? -1 : body.length, false, noBody ? 0 : body.length, true);
        if (!noBody) {
            head.put(body);
            res.suspendedBody(body.length);
        }
        out.put(head.flip());
    }

    @Override
    protected boolean queueInterim(int status, Headers fields) throws IOException {
        if (res.isHttp10()) {
            return false;
        }
        out.put(Http1Response.encodeInterim(status, fields));
        return true;
    }

    @Override
    protected void queueHead() throws IOException {
        ByteBuffer head;
        long declared = res.bodyForbidden() ? -1 : declaredLength();
        if (declared >= 0) {
            mode = Mode.FIXED; // as announced: the producer sends exactly that many bytes (a proxy relaying)
            owed = declared;
            head = res.encodeHead(declared, false, 0, true);
        } else if (!res.bodyForbidden() && !res.isHttp10()) {
            mode = Mode.CHUNKED;
            head = res.encodeHead(-1, true, 0, true);
        } else {
            mode = Mode.RAW; // HTTP/1.0: close-delimited (the head says Connection: close)
            head = res.encodeHead(-1, false, 0, true);
        }
        if (res.isHeadRequest() || res.bodyForbidden()) {
            mode = Mode.DISCARD;
        }
        out.put(head.flip());
    }

    @Override
    protected boolean offerPiece(byte[] piece) throws IOException {
        switch (mode) {
            case DISCARD -> {
                return true;
            }
            case FIXED -> {
                if (piece.length > owed) {
                    // The excess would be read as the next response: refused, nothing queued (the
                    // producer may still end the body as announced, or abort).
                    throw new IOException("body longer than the Content-Length set: " + owed + " byte(s) left, "
                            + piece.length + " written");
                }
                boolean queued = counted(piece, out.offer(ByteBuffer.wrap(piece.clone())));
                if (queued) {
                    owed -= piece.length;
                }
                return queued;
            }
            case RAW -> {
                return counted(piece, out.offer(ByteBuffer.wrap(piece.clone())));
            }
            default -> {
                byte[] size = Integer.toHexString(piece.length).getBytes(StandardCharsets.US_ASCII);
                ByteBuffer chunk = ByteBuffer.allocate(size.length + 2 + piece.length + 2);
                chunk.put(size).put(CRLF).put(piece).put(CRLF).flip();
                return counted(piece, out.offer(chunk));
            }
        }
    }

    private boolean counted(byte[] piece, boolean queued) {
        if (queued) {
            res.suspendedBody(piece.length);
        }
        return queued;
    }

    @Override
    protected void queueEnd() throws IOException {
        if (mode == Mode.CHUNKED) {
            out.put(ByteBuffer.wrap(LAST_CHUNK));
        } else if (mode == Mode.FIXED && owed > 0) {
            // Short of the announced length: on a reused connection the client would read the
            // next response as the rest. Closed instead, the body shows as incomplete (RFC 9112 §6.3).
            res.requireClose(CloseReason.ERROR);
        }
    }

    /**
     * What is queued goes out, then the connection closes as a cut ({@link ProtocolConnection#cutOff}):
     * a chunked body without its last chunk, a close-delimited (HTTP/1.0) one without TLS close_notify.
     */
    @Override
    protected void queueAbort() {
        connection.cutOff();
        out.close(CloseReason.ERROR, true);
    }

    @Override
    protected CompletableFuture<Void> protocolWhenWritable() {
        return out.whenWritable();
    }

    /** The connection goes back to its protocol once the queue is written: the exchange is counted there. */
    @Override
    protected void afterEnd(boolean answered) {
        connection.signal();
    }
}
