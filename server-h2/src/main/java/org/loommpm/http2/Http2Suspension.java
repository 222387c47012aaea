package org.loommpm.http2;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import org.loommpm.api.Headers;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.SuspendedExchange;
import org.loommpm.http2.frame.ErrorCode;

/**
 * A suspended HTTP/2 exchange: what any thread sends becomes items on the session's outbound
 * queue (HEADERS, then DATA pieces within the stream's budget, {@link Stream#offerData}), framed
 * by the connection's frame loop as the client's windows allow; nothing here blocks or touches
 * the socket. A reset stream ends the exchange ({@link Stream#cancel}); the end lets the
 * stream's task go ({@link StreamTask#suspendedPartDone}), which counts the exchange and gives
 * back the stream's place in the concurrency limit.
 */
final class Http2Suspension extends SuspendedExchange {
    private static final byte[] EMPTY = new byte[0];

    private final Http2Response res;
    private final Stream stream;
    private final long limit;
    /** Whether streamed pieces are dropped (HEAD, 204, 304). Under the lock. */
    private boolean discard;
    /** The bytes of a Content-Length set before streaming not yet queued, -1 for none. Under the lock. */
    private long owed = -1;

    Http2Suspension(Http2Response res, Stream stream, long deadlineNanos, StreamingLimits limits, long queueLimit,
                    boolean eventStream) {
        super(res, stream.session().connection().services(), deadlineNanos, limits.gracefulShutdownNanos(),
                eventStream);
        this.res = res;
        this.stream = stream;
        this.limit = queueLimit;
    }

    @Override
    protected void queueWhole(byte[] body) throws IOException {
        try {
            boolean noBody = res.isHead() || res.bodyForbidden() || body.length == 0;
            res.commit(body.length, noBody);
            if (!noBody) {
                res.counted(body.length);
                stream.enqueue(Out.data(stream, body.clone(), 0, body.length, true));
            }
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected boolean queueInterim(int status, Headers fields) throws IOException {
        try {
            stream.enqueue(Out.headers(stream, status, fields, false));
            return true;
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected void queueHead() throws IOException {
        try {
            res.commit(-1, false);
            discard = res.isHead() || res.bodyForbidden();
            if (!discard) {
                owed = declaredLength();
            }
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected boolean offerPiece(byte[] piece) throws IOException {
        if (discard) {
            return true;
        }
        if (owed >= 0 && piece.length > owed) {
            // DATA beyond the content-length make the response malformed (RFC 9113 §8.1.1): refused,
            // nothing queued (the producer may still end the body as announced, or abort).
            throw new IOException("body longer than the Content-Length set: " + owed + " byte(s) left, "
                    + piece.length + " written");
        }
        boolean queued = stream.offerData(Out.data(stream, piece.clone(), 0, piece.length, false), limit);
        if (queued) {
            res.counted(piece.length);
            if (owed >= 0) {
                owed -= piece.length;
            }
        }
        return queued;
    }

    @Override
    protected void queueEnd() throws IOException {
        if (owed > 0) {
            // Ended short of the content-length, the response would be malformed (RFC 9113 §8.1.1):
            // the stream is reset instead, as abort() does, so the client sees the body cut off.
            queueAbort();
            return;
        }
        try {
            stream.enqueue(Out.data(stream, EMPTY, 0, 0, true));
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
    }

    /** The stream is reset: the client drops what it received of the body. */
    @Override
    protected void queueAbort() throws IOException {
        try {
            stream.enqueue(Out.rst(stream, ErrorCode.INTERNAL_ERROR.code()));
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected CompletableFuture<Void> protocolWhenWritable() {
        return stream.whenWritable(limit);
    }

    @Override
    protected void afterEnd(boolean answered) {
        stream.task.suspendedPartDone();
    }
}
