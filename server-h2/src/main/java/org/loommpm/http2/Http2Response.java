package org.loommpm.http2;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Function;
import org.loommpm.api.EventStream;
import org.loommpm.api.Headers;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.http.EventStreamResponse;
import org.loommpm.http.StreamingLimits;
import org.loommpm.api.Response;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.Tunnel;
import org.loommpm.http.HttpDate;
import org.loommpm.http.ResponseState;
import org.loommpm.http.StackTraceLimiter;
import org.loommpm.http2.frame.ErrorCode;

/**
 * An HTTP/2 response. Nothing here touches the socket: the head becomes a HEADERS item and the
 * body DATA items on the session's outbound queue ({@link Stream#enqueue}); the frame loop
 * encodes and frames them within the client's flow-control windows. A large body parks the
 * handler ({@link Stream#awaitQueued}) whenever more than {@link Stream#QUEUE_BOUND} bytes wait
 * to be written, so it is never buffered whole. Owned by the stream's task; valid during one
 * exchange.
 */
final class Http2Response extends ResponseState implements ExchangeRunner.Exchange {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    /** Bodies up to this size are copied (the handler may reuse its array at once); larger ones are lent. */
    private static final int COPY_LIMIT = 16 * 1024;
    /** Largest piece a lent body is cut into before the task checks the queue bound. */
    private static final int PIECE = 64 * 1024;

    private final Stream stream;
    private final boolean head;
    private final String serverHeader;
    private final long timeoutNanos;
    private Http2OutputStream out;
    private long headBytes;
    private long bodyBytes;
    private long frames;

    /** SuspendTimeout and the rest, and OutboundQueueLimit, for {@link #suspend()} and {@link #eventStream()}. */
    private final StreamingLimits limits;
    private final long queueLimit;
    /** Set by {@link #tunnel}: the handler accepted an extended CONNECT. Task only. */
    private Function<Tunnel, Tunnel.Endpoint> tunnelOpener;

    Http2Response(Stream stream, String method, String serverHeader, long timeoutNanos, StreamingLimits limits,
                  long queueLimit) {
        this.limits = limits;
        this.queueLimit = queueLimit;
        this.stream = stream;
        this.head = "HEAD".equals(method);
        this.serverHeader = serverHeader;
        this.timeoutNanos = timeoutNanos;
    }

    /** Statuses that never carry a body (RFC 9110 §6.4.1). */
    boolean bodyForbidden() {
        return status < 200 || status == 204 || status == 304;
    }

    boolean isHead() {
        return head;
    }

    @Override
    public void send(byte[] body) throws IOException {
        checkNotComplete();
        checkNotCommitted();
        boolean noBody = head || bodyForbidden() || body.length == 0;
        long length = body.length;
        if (body.length == 0 && head && headers.first("Content-Length") != null) {
            length = -2; // keep the length a HEAD handler announced
        }
        if (trailing()) {
            // The fields before the head: a bad one can still be answered with a 500.
            Headers fields = trailerFields();
            commit(length, false);
            if (!noBody) {
                writeBody(body, 0, body.length, false);
            }
            endWithTrailers(fields);
            complete = true;
            return;
        }
        commit(length, noBody);
        complete = true;
        if (!noBody) {
            writeBody(body, 0, body.length, true);
        }
    }

    /**
     * Whether this response ends with trailer fields: the handler set them, and there is a body
     * they can follow (not HEAD, 204 or 304).
     */
    boolean trailing() {
        return trailersSet() && !head && !bodyForbidden();
    }

    /** The handler's trailer fields, from its supplier called now (checked; empty for none). */
    Headers trailerFields() {
        return takeTrailers();
    }

    /**
     * Ends the stream after the body queued so far: a HEADERS frame of the trailer fields with
     * END_STREAM (no pseudo-header fields, RFC 9113 §8.1), or an empty DATA frame with END_STREAM
     * when there are none.
     */
    void endWithTrailers(Headers fields) throws IOException {
        if (fields.size() == 0) {
            data(new byte[0], 0, 0, true);
            return;
        }
        for (int i = 0; i < fields.size(); i++) {
            headBytes += fields.name(i).length() + fields.value(i).length() + 32;
        }
        frames++;
        stream.enqueue(Out.trailers(stream, fields));
    }

    /** Queues body bytes as DATA; the array is copied when small, lent (and waited for) when large. */
    void writeBody(byte[] b, int off, int len, boolean end) throws IOException {
        if (len <= COPY_LIMIT || stream.session().inline.onPoller(stream)) {
            // On the poller the handler cannot wait for a lent array to be written: copied.
            data(Arrays.copyOfRange(b, off, off + len), 0, len, end);
            return;
        }
        int p = off;
        int stop = off + len;
        while (p < stop) {
            int n = Math.min(PIECE, stop - p);
            data(b, p, n, end && p + n == stop);
            p += n;
        }
        // The frame loop reads the lent array until it is written: wait before returning it.
        stream.awaitQueued(0, timeoutNanos);
    }

    /** Queues one DATA item the frame loop may keep (ownership passes), then respects the bound. */
    void data(byte[] b, int off, int len, boolean end) throws IOException {
        bodyBytes += len;
        frames += 1 + len / 16_384;
        stream.enqueue(Out.data(stream, b, off, len, end));
        stream.awaitQueued(Stream.QUEUE_BOUND, timeoutNanos);
    }

    @Override
    public OutputStream outputStream() {
        checkNotComplete();
        if (out == null) {
            checkNotCommitted();
            out = new Http2OutputStream(this);
        }
        return out;
    }

    @Override
    public void sendFile(Path file) throws IOException {
        sendFile(file, 0, sendableSize(file));
    }

    /**
     * Queues the head and the file region; the frame loop reads the file as the client's windows
     * open, after the handler has returned ({@link FileBody}), so a client that grants no window
     * holds no worker slot and no buffer. The file must stay as it is until the stream ends: one
     * that becomes shorter resets the stream (INTERNAL_ERROR).
     */
    @Override
    public void sendFile(Path file, long position, long count) throws IOException {
        checkNotComplete();
        checkNotCommitted();
        checkRange(file, position, count, sendableSize(file));
        if (trailing()) {
            // The file's frames are cut by the frame loop after the handler returned, with
            // END_STREAM on the last: with trailers to follow it goes through the stream instead.
            streamFile(file, position, count);
            return;
        }
        boolean noBody = head || bodyForbidden() || count == 0;
        commit(count, noBody);
        complete = true;
        if (!noBody) {
            bodyBytes += count;
            frames += 1 + count / 16_384;
            stream.enqueue(Out.file(stream, new FileBody(file, position, count)));
        }
    }

    /**
     * Queues the response head.
     *
     * @param contentLength the body length, -1 when unknown, -2 to keep a Content-Length the
     *                      handler set
     * @param endStream whether the head ends the response
     */
    void commit(long contentLength, boolean endStream) throws IOException {
        checkHeaders();
        committed = true;
        Headers h = new Headers();
        h.add("date", HttpDate.now());
        if (!headers.contains("Server")) {
            h.add("server", serverHeader);
        }
        String declared = headers.first("Content-Length");
        for (int i = 0; i < headers.size(); i++) {
            if (!Headers.equalsIgnoreCase(headers.name(i), "Content-Length")) {
                h.add(headers.name(i), headers.value(i));
            }
        }
        if (status >= 200 && status != 204 && status != 304) {
            if (contentLength >= 0 && (declared == null || !head)) {
                h.add("content-length", Long.toString(contentLength));
            } else if (declared != null) {
                h.add("content-length", declared.trim());
            }
        }
        for (int i = 0; i < h.size(); i++) {
            headBytes += h.name(i).length() + h.value(i).length() + 32;
        }
        frames++;
        stream.enqueue(Out.headers(stream, status, h, endStream));
        if (endStream) {
            complete = true;
        }
    }

    @Override
    protected boolean writeInterim(int status, Headers fields) throws IOException {
        frames++;
        stream.enqueue(Out.headers(stream, status, fields, false));
        return true;
    }

    @Override
    public SuspendedResponse suspend() {
        return suspend(java.time.Duration.ofNanos(limits.suspendTimeoutNanos()));
    }

    /** The stream's worker slot is released when the handler returns; the stream stays open. */
    @Override
    public SuspendedResponse suspend(java.time.Duration timeout) {
        checkNotComplete();
        checkNotCommitted();
        checkNoTrailers();
        Http2Suspension s = new Http2Suspension(this, stream, System.nanoTime() + timeout.toNanos(), limits,
                queueLimit, false);
        handOver(s);
        return s;
    }

    @Override
    public EventStream eventStream() throws IOException {
        checkNotComplete();
        checkNotCommitted();
        checkNoTrailers();
        Http2Suspension s = new Http2Suspension(this, stream, 0, limits, queueLimit, true);
        handOver(s);
        EventStreamResponse es = new EventStreamResponse(s, stream.request.headers().first("last-event-id"),
                limits.heartbeatNanos());
        if (head) {
            // The head is the whole answer to HEAD: open, the stream (no deadline) would never end
            // the client's request, with nothing it may ever send.
            es.close();
        }
        return es;
    }

    /** Counts body bytes a suspended exchange queued (for {@link #bytesSent()}). Under its lock. */
    void counted(int len) {
        bodyBytes += len;
        frames += 1 + len / 16_384;
    }

    /** Completes the response after the handler returned. */
    @Override
    public void finish() throws IOException {
        if (out != null) {
            out.close();
        } else if (!complete) {
            if (committed) {
                // Committed by the stream without a final item: end it with an empty DATA frame.
                data(new byte[0], 0, 0, true);
                complete = true;
            } else {
                send(new byte[0]);
            }
        }
    }

    /** A reset stream has nobody to answer: the exchange is over. */
    @Override
    public boolean clientGone(Exception e) {
        if (e instanceof StreamResetException) {
            LOG.log(Level.DEBUG, "LM0708 {0}: {1}", stream.session(), e.getMessage());
            return true;
        }
        return false;
    }

    /**
     * A status when nothing was sent yet; otherwise the stream is reset (the head is out). The
     * stream may be gone meanwhile: then the answer fails and {@link StreamTask} logs it.
     */
    @Override
    public boolean fail(ExchangeRunner.Failure failure, int status, Throwable cause) throws IOException {
        Session session = stream.session();
        if (suspension() != null) {
            // The handler failed after suspending: the handle answers (or ends the streamed body).
            logFailure("LM0710 handler failed after suspending ", session, cause);
            suspension().fail(status);
            return true;
        }
        switch (failure) {
            case STATUS -> LOG.log(Level.DEBUG, "LM0709 {0} stream {1} answered {2}: {3}", session, stream.id(),
                    status, cause.getMessage());
            case TIMEOUT -> LOG.log(Level.DEBUG, "LM0709 {0} stream {1}: {2}", session, stream.id(),
                    cause.getMessage());
            case ERROR -> logFailure("LM0710 handler failed for ", session, cause);
        }
        if (!committed) {
            sendStatusText(status, cause);
            return true;
        }
        if (!complete) {
            stream.enqueue(Out.rst(stream, ErrorCode.INTERNAL_ERROR.code()));
        }
        return false;
    }

    /** One line per failure; its stack trace once a minute per throw site, or every time at debug. */
    private void logFailure(String what, Session session, Throwable cause) {
        Throwable trace = StackTraceLimiter.HANDLERS.traceOrNull(cause, LOG.isLoggable(Level.DEBUG));
        LOG.log(Level.ERROR, what + stream.request.method() + " " + stream.request.path() + " on " + session
                + " stream " + stream.id() + ": " + cause + (trace == null ? StackTraceLimiter.NOT_REPEATED : ""),
                trace);
    }

    @Override
    public boolean webSocketDeflate() {
        return limits.webSocketDeflate();
    }

    @Override
    public String connectProtocol() {
        return stream.tunnel == null ? null : stream.request.protocol();
    }

    /**
     * RFC 8441: the head (the status set, 200) goes out without END_STREAM and the stream stays
     * open; once the handler has returned, {@link StreamTask} opens the tunnel with {@code open}.
     */
    @Override
    public void tunnel(Function<Tunnel, Tunnel.Endpoint> open) throws IOException {
        if (stream.tunnel == null) {
            throw new UnsupportedOperationException("not an HTTP/2 extended CONNECT");
        }
        checkNotComplete();
        checkNotCommitted();
        commit(-1, false);
        complete = true;
        tunnelOpener = open;
    }

    /** What opens the accepted tunnel, or {@code null} when the request was not accepted as one. */
    Function<Tunnel, Tunnel.Endpoint> tunnelOpener() {
        return tunnelOpener;
    }

    void markComplete() {
        complete = true;
    }

    Stream stream() {
        return stream;
    }

    /**
     * Response bytes as HTTP/2 framed them, approximately: header fields uncompressed (with
     * HPACK's 32-byte overhead each), body bytes and 9 bytes per frame.
     */
    @Override
    public long bytesSent() {
        return headBytes + bodyBytes + 9 * frames;
    }

    @Override
    public long bodyBytesSent() {
        return bodyBytes;
    }
}
