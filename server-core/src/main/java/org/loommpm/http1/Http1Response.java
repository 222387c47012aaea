package org.loommpm.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.loommpm.api.EventStream;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.http.EventStreamResponse;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.HttpDate;
import org.loommpm.http.RequestHead;
import org.loommpm.http.ResponseState;
import org.loommpm.http.StackTraceLimiter;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.PeerIOException;
import org.loommpm.spi.ProtocolConnection;

/**
 * An HTTP/1.1 response. The head is encoded into the context's head scratch buffer when the
 * response commits; a small body is appended to it so a hello-world answer is one write. Larger
 * bodies go out as a gathering write, files through {@code transferTo}, streams through
 * {@link Http1OutputStream}. Whether the connection stays open is decided when the head is
 * written and announced there ({@code Connection: close}). Worker-owned; valid during one
 * exchange.
 *
 * <p><b>Pipelining.</b> A complete response written while more request bytes wait in the read
 * buffer (the next pipelined request) goes into the connection's batch ({@link Http1State})
 * instead of the socket; the handler flushes the batch once the buffer runs dry, so a burst of
 * pipelined requests costs one write, as in servers that flush per read batch. Any other write
 * (a streamed body, a file, a 100 Continue) flushes the batch first, so bytes stay in order.
 */
final class Http1Response extends ResponseState implements ExchangeRunner.Exchange {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http1");
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final ProtocolConnection connection;
    /** The context's codec state and write buffer: dropped by {@link #releaseContext} once suspended. */
    private Http1State state;
    private ByteBuffer staging;
    private final RequestHead request;
    private final String serverHeader;
    private boolean closeAfter;
    /** Why the connection ends if it does: NORMAL unless a failure forced the close. */
    private CloseReason closeReason = CloseReason.NORMAL;
    /** The client sent Expect: 100-continue and is waiting for our verdict before sending the body. */
    private boolean awaitingContinue;
    /**
     * The request if it has a body, until the exchange suspends: asked at commit whether the body
     * is still arriving (on the worker only, whose buffers it reads).
     */
    private Http1Request withBody;
    private Http1OutputStream stream;
    /** The connection's byte count when this exchange began ({@link #bytesSent()} is the delta). */
    private long writtenAtStart;
    /** The rest of the read buffer: bytes there mean a pipelined request is waiting. */
    private ByteBuffer pending;
    /** This response's bytes put in the batch (not yet counted by the connection). */
    private long batched;
    /** SuspendTimeout and the rest, for {@link #suspend()} and {@link #eventStream()}. */
    private final StreamingLimits limits;
    /** Body bytes sent by {@link #send} or {@link #sendFile} (the stream counts its own). */
    private long bodyBytes;

    /**
     * @param keepAlive whether the connection may stay open after this response (the request
     *                  asked for it and the server allows another request)
     */
    Http1Response(ProtocolConnection connection, Http1State state, ByteBuffer staging, ByteBuffer pending,
                  RequestHead request, String serverHeader, boolean keepAlive, StreamingLimits limits) {
        this.limits = limits;
        this.connection = connection;
        this.pending = pending;
        this.state = state;
        this.staging = staging;
        this.request = request;
        this.serverHeader = serverHeader;
        this.closeAfter = !keepAlive;
        this.writtenAtStart = connection.bytesWritten();
    }

    /**
     * The exchange was suspended and its connection is going idle: the context (its buffers, its
     * codec state) goes back to the recycle list and may serve another connection, so this
     * response must not keep it alive; a suspended exchange encodes into buffers of its own.
     * The serving worker, before the hand-back.
     */
    void releaseContext() {
        state = null;
        staging = null;
        pending = null;
    }

    /** The exchange's request, which has a body: see {@link #encodeHead}. */
    void requestWithBody(Http1Request request) {
        withBody = request;
    }

    /** Whether the connection closes after this response. */
    boolean closeAfter() {
        return closeAfter;
    }

    /**
     * Forces {@code Connection: close} (announced only if the head is not written yet): the
     * connection ends after this exchange, under {@code why}.
     */
    void requireClose(CloseReason why) {
        closeAfter = true;
        closeReason = why;
    }

    /** Why the connection ends if it does after this exchange. */
    CloseReason closeReason() {
        return closeReason;
    }

    boolean isHeadRequest() {
        return "HEAD".equals(request.method());
    }

    boolean isHttp10() {
        return request.version() == RequestHead.Version.HTTP_1_0;
    }

    /** The Content-Length the handler set; an invalid one is the handler's bug. */
    private long declaredLength() {
        String cl = headers.first("Content-Length").trim();
        try {
            long n = Long.parseLong(cl);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("invalid Content-Length set by handler: " + cl);
    }

    /** Statuses that never carry a body. */
    boolean bodyForbidden() {
        return status < 200 || status == 204 || status == 304;
    }

    @Override
    public void send(byte[] body) throws IOException {
        checkNotComplete();
        checkNotCommitted();
        if (trailing()) {
            // Chunked, whatever the length: the stream frames it and ends it with the trailers,
            // asked for first (the whole body is known), so a bad field is still a 500.
            Headers fields = takeTrailers();
            outputStream();
            stream.endWith(fields);
            stream.write(body);
            stream.close();
            return;
        }
        boolean noBody = bodyForbidden();
        long length = body.length;
        if (body.length == 0 && isHeadRequest() && headers.first("Content-Length") != null) {
            // A HEAD handler may announce the length the GET would have without producing it.
            length = declaredLength();
        }
        ByteBuffer head = encodeHead(noBody ? -1 : length, false, body.length);
        complete = true; // after encodeHead, which may reject a header and leave the response open
        if (noBody || isHeadRequest() || body.length == 0) {
            writeComplete(head.flip(), null);
            return;
        }
        bodyBytes = body.length;
        if (head.remaining() >= body.length) {
            head.put(body);
            writeComplete(head.flip(), null);
        } else {
            writeComplete(head.flip(), ByteBuffer.wrap(body));
        }
    }

    /**
     * Writes a whole response (head and, if separate, body), into the batch while a pipelined
     * request waits and it fits, else to the socket after what is batched. The last answer of a
     * burst joins the batch too when it fits, which then goes out at once: one write per burst.
     */
    void writeComplete(ByteBuffer head, ByteBuffer body) throws IOException {
        int n = head.remaining() + (body == null ? 0 : body.remaining());
        boolean more = pending.hasRemaining();
        if ((more || state.hasBatch()) && state.batch(head, body, n)) {
            batched += n;
            if (!more) {
                flushBatch();
            }
            return;
        }
        flushBatch();
        if (body == null) {
            connection.write(head);
        } else {
            connection.write(new ByteBuffer[] {head, body});
        }
    }

    /**
     * Writes out what earlier exchanges batched. Those bytes are not this exchange's: the
     * starting count moves past them so {@link #bytesSent()} stays this response's own.
     */
    void flushBatch() throws IOException {
        writtenAtStart += state.flushBatch(connection);
    }

    @Override
    public OutputStream outputStream() {
        checkNotComplete();
        if (stream == null) {
            checkNotCommitted();
            stream = new Http1OutputStream(this, connection, staging);
        }
        return stream;
    }

    @Override
    public void sendFile(Path file) throws IOException {
        sendRange(file, 0, -1);
    }

    /** A byte range of the file through {@code transferTo}. */
    @Override
    public void sendFile(Path file, long position, long count) throws IOException {
        if (count < 0) { // not "the whole file", as it is to sendRange
            throw new IllegalArgumentException("negative range: " + position + "+" + count);
        }
        sendRange(file, position, count);
    }

    /** {@code count < 0} means the whole file, as its channel sees it once open. */
    private void sendRange(Path file, long position, long count) throws IOException {
        checkNotComplete();
        checkNotCommitted();
        long fileSize = sendableSize(file); // refuses a directory, which opens here but fails at the first read
        if (trailing()) {
            // transferTo cannot frame chunks: the file goes through the stream, which ends it with the trailers.
            long length = count < 0 ? fileSize : count;
            checkRange(file, position, length, fileSize);
            streamFile(file, position, length);
            return;
        }
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = fc.size();
            long length = count < 0 ? size : count;
            checkRange(file, position, length, size);
            ByteBuffer head = encodeHead(length, false, 0);
            complete = true;
            flushBatch();
            connection.write(head.flip());
            if (!isHeadRequest() && !bodyForbidden()) {
                connection.transferFrom(fc, position, length);
                bodyBytes = length;
            }
        }
    }

    @Override
    public long bytesSent() {
        // What the connection wrote for this exchange: head, body, chunk framing, a 100 Continue.
        return connection.bytesWritten() - writtenAtStart + batched;
    }

    @Override
    public long bodyBytesSent() {
        return stream != null ? stream.bodyBytes() : bodyBytes;
    }

    /** Counts body bytes a suspended exchange queued (for {@link #bodyBytesSent()}). Under its lock. */
    void suspendedBody(long n) {
        bodyBytes += n;
    }

    /**
     * Records whether the client is still holding back a body it announced with
     * {@code Expect: 100-continue}: set when the request is created, cleared on the first body
     * read (which sends the 100, or finds the response already committed).
     */
    void awaitingContinue(boolean awaiting) {
        awaitingContinue = awaiting;
    }

    /** The interim response for {@code Expect: 100-continue}. */
    void writeContinue() throws IOException {
        flushBatch();
        connection.write(ByteBuffer.wrap(CONTINUE));
    }

    @Override
    protected boolean writeInterim(int status, Headers fields) throws IOException {
        if (isHttp10()) {
            return false;
        }
        flushBatch();
        connection.write(encodeInterim(status, fields));
        return true;
    }

    /** {@return an interim response's head, ready to write} (fields checked by {@code HeaderValidation.interim}) */
    static ByteBuffer encodeInterim(int status, Headers fields) {
        byte[] line = StatusLines.statusLine(status);
        int n = line.length + 2;
        for (int i = 0; i < fields.size(); i++) {
            n += fields.name(i).length() + fields.value(i).length() + 4;
        }
        ByteBuffer b = ByteBuffer.allocate(n).put(line);
        for (int i = 0; i < fields.size(); i++) {
            putHeader(b, fields.name(i), fields.value(i));
        }
        return b.put((byte) '\r').put((byte) '\n').flip();
    }

    /**
     * Completes the response after the handler returned: an untouched response becomes an empty
     * body with the status set; an open stream is closed.
     */
    @Override
    public void finish() throws IOException {
        if (stream != null) {
            stream.close();
        } else if (!complete) {
            send(new byte[0]);
        }
    }

    @Override
    public boolean webSocketDeflate() {
        return limits.webSocketDeflate();
    }

    @Override
    public SuspendedResponse suspend() {
        return suspend(java.time.Duration.ofNanos(limits.suspendTimeoutNanos()));
    }

    @Override
    public SuspendedResponse suspend(java.time.Duration timeout) {
        checkNotComplete();
        checkNotCommitted();
        checkNoTrailers();
        decideBodyBeforeHandOver();
        Http1Suspension s = new Http1Suspension(this, connection, System.nanoTime() + timeout.toNanos(), limits, false);
        handOver(s);
        return s;
    }

    @Override
    public EventStream eventStream() throws IOException {
        checkNotComplete();
        checkNotCommitted();
        checkNoTrailers();
        decideBodyBeforeHandOver();
        Http1Suspension s = new Http1Suspension(this, connection, 0, limits, true);
        handOver(s);
        EventStreamResponse es = new EventStreamResponse(s, request.headers().first("Last-Event-ID"),
                limits.heartbeatNanos());
        if (isHeadRequest()) {
            // The head is the whole answer to HEAD: open, the stream (no deadline) would hold the
            // connection, and the client's next request, with nothing it may ever send.
            es.close();
        }
        return es;
    }

    /**
     * The suspended answer is encoded on whichever thread sends it, which must not read the
     * worker's buffers: whether the request's body is still arriving is decided now, as
     * {@link #encodeHead} would (the worker then drops the body only if it has arrived).
     */
    private void decideBodyBeforeHandOver() {
        if (withBody != null && withBody.bodyStillArriving()) {
            closeAfter = true;
        }
        withBody = null;
    }

    /** A client gone mid-exchange ends the connection at once: counted only as an aborted one. */
    @Override
    public boolean clientGone(Exception e) throws IOException {
        if (e instanceof PeerIOException || e instanceof EOFException) {
            throw (IOException) e;
        }
        return false;
    }

    /**
     * Answers with {@code status} and {@code Connection: close} if the head is not out yet;
     * either way the connection ends after this exchange (a committed response cannot carry an
     * error status any more: then it is closed at once).
     */
    @Override
    public boolean fail(ExchangeRunner.Failure failure, int status, Throwable cause) throws IOException {
        if (suspension() != null) {
            // The handler failed after suspending: the handle answers (or ends the streamed body).
            logFailure("LM0401 handler failed after suspending ", cause);
            suspension().fail(status);
            return true;
        }
        switch (failure) {
            case STATUS -> LOG.log(Level.DEBUG, "LM0406 {0} {1} answered {2}: {3}", request.method(),
                    request.rawTarget(), status, cause.getMessage());
            case TIMEOUT -> LOG.log(Level.DEBUG, "LM0407 {0} {1}: client too slow: {2}", request.method(),
                    request.rawTarget(), cause.toString());
            case ERROR -> logFailure("LM0401 handler failed for ", cause);
        }
        requireClose(failure == ExchangeRunner.Failure.TIMEOUT ? CloseReason.TIMEOUT : CloseReason.ERROR);
        if (isCommitted()) {
            return false;
        }
        sendStatusText(status, cause);
        return true;
    }

    /**
     * The body the handler left unread failed when the server read past it (a malformed chunk, a
     * chunk past LimitRequestBody): where it ends is unknown, so the connection closes, and the
     * answer becomes that failure's status if none of it went out. It usually has not: the body's
     * bytes, buffered behind the head, looked like a pipelined request, so the answer waited in
     * the batch (this response's bytes are its last: the handler has returned).
     */
    void unreadBodyFailed(HttpException e) throws IOException {
        LOG.log(Level.DEBUG, "LM0406 {0} {1} answered {2}: {3}", request.method(), request.rawTarget(), e.status(),
                e.getMessage());
        requireClose(CloseReason.ERROR);
        if (batched == 0 || state.batchedBytes() < batched) {
            return; // it went out: the close alone tells the client
        }
        state.unbatch((int) batched);
        batched = 0;
        status = e.status();
        writeComplete(ByteBuffer.wrap(ErrorResponses.bytes(e.status(), serverHeader, true, !isHeadRequest())), null);
    }

    /** One line per failure; its stack trace once a minute per throw site, or every time at debug. */
    private void logFailure(String what, Throwable cause) {
        Throwable trace = StackTraceLimiter.HANDLERS.traceOrNull(cause, LOG.isLoggable(Level.DEBUG));
        LOG.log(Level.ERROR, what + request.method() + " " + request.rawTarget() + ": " + cause
                + (trace == null ? StackTraceLimiter.NOT_REPEATED : ""), trace);
    }

    /**
     * Whether this response ends with trailer fields: the handler set them, and its body can carry
     * them (not HEAD, 204 or 304; and HTTP/1.1, since HTTP/1.0 has no chunked coding). Decided when
     * the head is encoded, from the status set by then.
     */
    boolean trailing() {
        return trailersSet() && !isHttp10() && !isHeadRequest() && !bodyForbidden();
    }

    /**
     * The handler's trailer fields, from its supplier called now (the body is complete).
     *
     * @throws IllegalArgumentException for a trailer field that is invalid or not allowed there
     */
    Headers trailerFields() {
        return takeTrailers();
    }

    /**
     * The end of a chunked body: the last chunk, the trailer fields ({@code null} for none), the
     * empty line (RFC 9112 §7.1.2).
     */
    static ByteBuffer lastChunk(Headers fields) {
        if (fields == null || fields.size() == 0) {
            return ByteBuffer.wrap(LAST_CHUNK);
        }
        int n = 5;
        for (int i = 0; i < fields.size(); i++) {
            n += fields.name(i).length() + fields.value(i).length() + 4;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        b.put((byte) '0').put((byte) '\r').put((byte) '\n');
        for (int i = 0; i < fields.size(); i++) {
            putHeader(b, fields.name(i), fields.value(i));
        }
        return b.put((byte) '\r').put((byte) '\n').flip();
    }

    /** Marks the response complete (the stream calls this when it closes). */
    void markComplete() {
        complete = true;
    }

    /**
     * Encodes the status line and headers into the head scratch buffer and marks the response
     * committed.
     *
     * @param contentLength the body length, or -1 when unknown (chunked or close-delimited)
     * @param chunked whether the body is sent with chunked transfer coding
     * @param extra room to leave after the head for a body that may be appended
     * @return the buffer in write mode, positioned after the head
     * @throws IllegalArgumentException if a header field is invalid (the response stays uncommitted)
     */
    ByteBuffer encodeHead(long contentLength, boolean chunked, int extra) {
        return encodeHead(contentLength, chunked, extra, false);
    }

    /**
     * As {@link #encodeHead(long, boolean, int)}; with {@code ownBuffer} into a buffer of its
     * own rather than the context's scratch (a suspended exchange encodes on any thread, after
     * the context went back to the recycle list).
     */
    ByteBuffer encodeHead(long contentLength, boolean chunked, int extra, boolean ownBuffer) {
        // Before anything is committed: the response stays open, so a failure can become a 500.
        checkHeaders();
        committed = true;
        // One pass over the fields for what the head depends on; names compared only when their
        // length matches, since most fields are none of these.
        int estimate = 256 + serverHeader.length() + extra;
        boolean hasServer = false;
        boolean hasConnection = false;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            estimate += name.length() + headers.value(i).length() + 4;
            hasServer |= name.length() == 6 && Headers.equalsIgnoreCase(name, "Server");
            hasConnection |= name.length() == 10 && Headers.equalsIgnoreCase(name, "Connection");
        }
        // Checked at commit, not at parse: a graceful stop that began while the handler ran
        // must still tell this client that the connection ends.
        if (hasConnection && headers.hasToken("Connection", "close") || connection.services().isDraining()) {
            closeAfter = true;
        }
        // A final response before the handler read a body the client holds back for a 100: the
        // body will never be sent, so the connection cannot carry another request (the
        // exchange ends with a lingering close). Say so now (RFC 9110 §10.1.1) rather than let
        // the client reuse the connection and lose its next request.
        if (awaitingContinue) {
            closeAfter = true;
        }
        // An answer before the body arrived (a 401, 405 or 413 to an upload): it goes out now and
        // the server will not wait for the rest to keep the connection (Http1Request.discardBody),
        // so it says it closes, and a lingering close takes what the client still sends.
        if (withBody != null && withBody.bodyStillArriving()) {
            closeAfter = true;
        }
        if (contentLength < 0 && !chunked && !bodyForbidden()) {
            closeAfter = true; // a close-delimited body
        }
        ByteBuffer b = ownBuffer ? ByteBuffer.allocate(estimate) : state.headBuffer(estimate);
        b.put(StatusLines.statusLine(status));
        putHeader(b, "Date", HttpDate.now());
        if (!hasServer) {
            putHeader(b, "Server", serverHeader);
        }
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (!framing(name)) {
                putHeader(b, name, headers.value(i));
            }
        }
        if (chunked) {
            putHeader(b, "Transfer-Encoding", "chunked");
        } else if (contentLength >= 0 && status >= 200 && status != 204) {
            putAscii(b, "Content-Length");
            b.put((byte) ':').put((byte) ' ');
            putDecimal(b, contentLength);
            b.put((byte) '\r').put((byte) '\n');
        }
        if (switchingTo() != null) {
            putHeader(b, "Connection", "Upgrade"); // the connection now belongs to another protocol
        } else if (closeAfter) {
            putHeader(b, "Connection", "close");
        } else if (request.version() == RequestHead.Version.HTTP_1_0) {
            putHeader(b, "Connection", "keep-alive");
        }
        b.put((byte) '\r').put((byte) '\n');
        return b;
    }

    /** The fields the server writes itself from how it frames the body, whatever a handler set. */
    private static boolean framing(String name) {
        return switch (name.length()) {
            case 10 -> Headers.equalsIgnoreCase(name, "Connection");
            case 14 -> Headers.equalsIgnoreCase(name, "Content-Length");
            case 17 -> Headers.equalsIgnoreCase(name, "Transfer-Encoding");
            default -> false;
        };
    }

    private static void putHeader(ByteBuffer b, String name, String value) {
        putAscii(b, name);
        b.put((byte) ':').put((byte) ' ');
        putAscii(b, value);
        b.put((byte) '\r').put((byte) '\n');
    }

    /** The decimal digits of {@code v} (not negative), without a String on the way. */
    private static void putDecimal(ByteBuffer b, long v) {
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        int p = b.position();
        byte[] a = b.array();
        long left = v;
        for (int i = b.arrayOffset() + p + digits - 1; i >= b.arrayOffset() + p; i--) {
            a[i] = (byte) ('0' + left % 10);
            left /= 10;
        }
        b.position(p + digits);
    }

    /**
     * The low byte of each character, as one bulk copy into the head buffer's array (a heap
     * buffer): names and values are Latin-1 once {@link org.loommpm.http.HeaderValidation}
     * has passed them, and the per-character {@code put} this replaces cost a static file's
     * head (four more fields than a hello answer) ~0.5 us.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly the low bytes, no charset
    private static void putAscii(ByteBuffer b, String s) {
        int n = s.length();
        int p = b.position();
        s.getBytes(0, n, b.array(), b.arrayOffset() + p);
        b.position(p + n);
    }
}
