package org.loommpm.websocket.server;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.loommpm.api.Headers;
import org.loommpm.config.ClientChargeSettings;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.WebSocketSettings;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;
import org.loommpm.websocket.deflate.DeflateParams;
import org.loommpm.websocket.deflate.MessageInflater;
import org.loommpm.websocket.deflate.ZlibPool;
import org.loommpm.websocket.frame.CloseCodes;
import org.loommpm.websocket.frame.MessageReader;
import org.loommpm.websocket.frame.Opcode;
import org.loommpm.websocket.frame.WebSocketProtocolException;

/**
 * One WebSocket, on an HTTP/1.1 connection or an HTTP/2 stream: the connection's session (kept
 * while it waits in its poller), the application's {@link WebSocketSession}, and the listener of
 * its {@link MessageReader}. Over HTTP/2 (RFC 8441) it is the {@link Tunnel.Endpoint} of its
 * stream: the stream's worker calls {@link #received} with the client's bytes (the reader and
 * the activity clock are then that worker's), and every frame, the owner's included, goes
 * through the stream's {@link OutboundQueue} (its DATA frames); the close frame is followed by
 * END_STREAM.
 *
 * <p><b>Who owns what.</b> The reader, the activity clock and {@link #serve} belong to the
 * connection's owner: a worker dispatched when bytes arrive (or a deadline or stop), which reads
 * every available byte, runs the handler's callbacks for the messages they complete, writes what
 * is queued, and hands the connection back <i>detached</i>: waiting in its poller with read
 * interest and a deadline, holding no worker slot, no thread and no buffer (the reader keeps at
 * most a partial frame header and a partly received message). Sending is any thread's, through
 * the {@link FrameSender}: a frame is encoded (and compressed) on the sender's thread and offered
 * to the connection's {@link OutboundQueue}, which its poller (or the owning worker) writes; the
 * owning worker keeps its own pings, pongs and messages in a batch it writes before anything
 * queued, and a close frame always goes through the queue (see {@link FrameSender}).
 *
 * <p><b>States</b> ({@code OPEN -> CLOSING -> CLOSED}): its {@link FrameSender} holds them, with the
 * frames the owner keeps and the rule that no frame follows the close frame. After {@code OPEN}
 * no message reaches the handler and no send is accepted. {@link WebSocketHandler#onClose} runs
 * once, on a worker dispatched when the connection ends ({@link OutboundQueue#closed()}), with the
 * code recorded by the winner of the CAS (1006 if the connection ended without a close frame).
 */
final class WebSocketConnection implements WebSocketSession, MessageReader.Listener, Tunnel.Endpoint {
    private static final System.Logger LOG = System.getLogger("org.loommpm.websocket");
    /** Reads with data per dispatch before the socket waits in its poller again (fairness). */
    private static final int MAX_READS_PER_DISPATCH = 16;
    private static final byte[] EMPTY = new byte[0];
    private static final String IDLE_TIMEOUT = "idle timeout";
    private static final String MESSAGE_TIMEOUT = "message not finished in time";

    /** What the session shows of its handshake request; the header fields only until onOpen returns. */
    record Origin(String path, String query, Map<String, String> pathParams, Headers headers) {
    }

    /** Where frames go and what the socket shows: the HTTP/1.1 connection, or the HTTP/2 stream. */
    private final Tunnel link;
    private final WebSocketHandler handler;
    private final WebSocketSettings settings;
    private final String subprotocol;
    private final String path;
    private final String query;
    private final Map<String, String> pathParams;
    /** Owner only. */
    private final MessageReader reader;
    /** Owner only: the message being received must end by WebSocketMessageTimeout. */
    private final MessageDeadline messageDeadline;
    private final MessageInflater inflater;
    /** What the inflater did, charged to the client; null without permessage-deflate. Owner only. */
    private final InflateCharge inflateCharge;
    /** Every frame the socket sends, its state and its close decision. */
    private final FrameSender sender;
    /** Server-wide WebSocket counts, looked up once per socket so each message increments a field. */
    private final WebSocketCounters counters;
    /** Who runs onClose: after the end, and after the last worker in the reader or a callback left. */
    private final CallbackGate gate = new CallbackGate();

    private volatile Headers handshakeHeaders;
    private volatile Object attachment;
    /** Owner only: when the client last sent anything, and when the server last pinged. */
    private long lastActivityNanos;
    private long lastPingNanos;

    /** On an HTTP/1.1 connection. */
    WebSocketConnection(ProtocolConnection c, ServerConfig config, WebSocketHandler handler, String subprotocol,
                        DeflateParams deflate, Origin origin) {
        this(c, new ConnectionLink(c, config), handler, config, subprotocol, deflate, origin);
    }

    /** Over an HTTP/2 stream (RFC 8441). */
    WebSocketConnection(Tunnel stream, WebSocketHandler handler, String subprotocol, DeflateParams deflate,
                        Origin origin) {
        this(null, stream, handler, stream.config(), subprotocol, deflate, origin);
    }

    private WebSocketConnection(ProtocolConnection c, Tunnel link, WebSocketHandler handler, ServerConfig config,
                                String subprotocol, DeflateParams deflate, Origin origin) {
        this.link = link;
        this.handler = handler;
        this.settings = config.webSocket();
        this.subprotocol = subprotocol;
        this.path = origin.path();
        this.query = origin.query();
        this.pathParams = origin.pathParams();
        this.handshakeHeaders = origin.headers();
        ClientChargeSettings charge = config.clientCharges();
        this.inflater = deflate == null ? null
                : new MessageInflater(deflate, ZlibPool.SHARED, charge.inflateRatio(), charge.inflateRatioMinBytes());
        this.reader = new MessageReader(settings.maxFrameSize(), settings.maxMessageSize(), inflater,
                new InputBudget.Hold(link.services().inputBudget(), InputBudget.Consumer.WEBSOCKET_MESSAGE));
        this.messageDeadline = new MessageDeadline(config.inputBudget().webSocketMessageTimeout());
        this.counters = WebSocketCounters.of(link.services().counters());
        this.inflateCharge = inflater == null ? null
                : new InflateCharge(inflater, link.services(), link.remoteAddress(), counters);
        this.sender = new FrameSender(c, link, deflate, counters);
    }

    // ---- over an HTTP/2 stream: the stream's worker ----

    /**
     * Calls the handler's onOpen (a throw closes the socket 1011) and drops the handshake's
     * headers; a socket opened while the server drains is closed 1001 at once. Either protocol,
     * on the worker that completed the handshake.
     */
    private void callOnOpen(ChildServices services) {
        try {
            handler.onOpen(this);
        } catch (Exception | LinkageError | AssertionError e) {
            handlerFailed(e);
        } finally {
            handshakeHeaders = null;
        }
        if (services.isDraining() || services.isStopping()) {
            sender.startClose(CloseCodes.GOING_AWAY, "server going away");
        }
    }

    /** The stream is open (its 200 queued): onOpen, on the request's worker. */
    @Override
    public void opened(int slot) {
        enter();
        try {
            counters.opened();
            link.outbound().closed().whenComplete((reason, failure) -> ended());
            callOnOpen(link.services());
            endStreamIfClosing(CloseReason.NORMAL);
        } finally {
            leave();
        }
    }

    /** The client's bytes on the stream: frames are parsed and the callbacks run; a failure closes. */
    @Override
    public void received(ByteBuffer bytes) {
        if (!sender.isOpen()) {
            return; // closing: what follows the close decision is dropped (RFC 6455 §1.4)
        }
        CloseReason reason = CloseReason.NORMAL;
        enter();
        try {
            reader.read(bytes, this);
            if (messageOverdue()) {
                reason = CloseReason.TIMEOUT;
            }
            if (inflateCharge != null) {
                inflateCharge.settle(link.id());
            }
        } catch (WebSocketProtocolException e) {
            if (inflateCharge != null) {
                inflateCharge.failed(link.id());
            }
            failed(e, " (HTTP/2)");
            sender.startClose(e.closeCode(), e.getMessage());
            reason = CloseReason.ERROR;
        } catch (HandlerFailure e) {
            reason = CloseReason.ERROR;
        } finally {
            leave();
        }
        endStreamIfClosing(reason);
    }

    /**
     * The client ended its side of the stream: after its close frame that is the orderly end
     * (RFC 8441 §5); without one the socket ends too, and onClose reports 1006.
     */
    @Override
    public void inputEnded() {
        if (sender.toClosing()) {
            LOG.log(Level.DEBUG, "LM1704 WebSocket {0} (HTTP/2) ended: the client ended the stream without a close frame",
                    link.id());
            link.outbound().close(CloseReason.ABORT, true);
            return;
        }
        endStreamIfClosing(CloseReason.NORMAL);
    }

    /** WebSocketIdleTimeout counts the client's frames only; WebSocketPingInterval pings a quiet client. */
    @Override
    public Tunnel.Timeouts timeouts() {
        return new Tunnel.Timeouts(settings.idleTimeout(), false, settings.pingInterval());
    }

    /** The server stops: close 1001, then END_STREAM. On the frame loop (startClose only waits for offers in flight). */
    @Override
    public void goingAway() {
        sender.startClose(CloseCodes.GOING_AWAY, "server going away");
        endStreamIfClosing(CloseReason.NORMAL);
    }

    /** No frame from the client for WebSocketIdleTimeout: close 1001, then END_STREAM. On the frame loop. */
    @Override
    public void idleTimeout() {
        if (sender.isOpen()) {
            LOG.log(Level.DEBUG, "LM1705 WebSocket {0} (HTTP/2) idle for {1}: closing", link.id(), settings.idleTimeout());
        }
        sender.startClose(CloseCodes.GOING_AWAY, IDLE_TIMEOUT);
        endStreamIfClosing(CloseReason.TIMEOUT);
    }

    /** Nothing from the client for WebSocketPingInterval: a ping (dropped if the queue is full). */
    @Override
    public void keepAlive() {
        sender.send(Opcode.PING, EMPTY, false);
    }

    /** Once the close frame is queued, END_STREAM follows it (the client's own END_STREAM ends the stream). */
    private void endStreamIfClosing(CloseReason reason) {
        if (!sender.isOpen()) {
            link.outbound().close(reason, true);
        }
    }

    // ---- the owner: a worker holding the connection ----

    /** The first serve, right after the 101: onOpen, then whatever the client sent behind its handshake. */
    void open(ProtocolConnection c, int slot) {
        enter();
        try {
            counters.opened();
            // Every end of the connection completes this future, whoever ends it: onClose hangs off it.
            c.outbound().closed().whenComplete((reason, failure) -> ended());
            lastActivityNanos = System.nanoTime();
            lastPingNanos = lastActivityNanos;
            sender.claim();
            callOnOpen(c.services());
            serve(c, slot);
        } finally {
            leave();
        }
    }

    /** A dispatch: bytes arrived, a deadline passed, or the server stops. Ends with one hand-back. */
    void serve(ProtocolConnection c, int slot) {
        SlotBoard board = c.services().scoreboard();
        board.set(slot, SlotBoard.READING);
        sender.claim();
        enter();
        try {
            serveOwned(c, slot, board);
        } finally {
            leave();
        }
    }

    private void serveOwned(ProtocolConnection c, int slot, SlotBoard board) {
        try {
            if (c.closeRequested()) {
                deadline(c);
            }
            ByteBuffer in = c.context().in();
            for (int reads = 0; ; ) {
                if (in.hasRemaining() && sender.isOpen()) {
                    reader.read(in, this);
                    messageOverdue();
                    if (inflateCharge != null) {
                        inflateCharge.settle(c.id());
                    }
                }
                if (!sender.isOpen() || c.outbound().isClosed()) {
                    board.set(slot, SlotBoard.CLOSING);
                    finish(c);
                    return;
                }
                in.clear();
                int n = c.readNow(in);
                in.flip();
                if (n < 0) {
                    // The client went away without a close frame: 1006 for the handler.
                    sender.release();
                    c.handBackClose(CloseReason.ABORT);
                    return;
                }
                if (n > 0) {
                    lastActivityNanos = System.nanoTime();
                    reads++;
                }
                if (n == 0 && !c.hasBufferedInput() && sender.hasOwn() && reads < MAX_READS_PER_DISPATCH
                        && c.services().busyWorkers() > 1) {
                    // Grace read, as HTTP/1.1 does after a response: the answers go out, the other
                    // runnable workers run once, and a client that answers at once (an echo, a
                    // request/response protocol) is read without a round trip through the poller.
                    sender.writeOwn(c);
                    Thread.yield();
                    in.clear();
                    n = c.readNow(in);
                    in.flip();
                    if (n < 0) {
                        sender.release();
                        c.handBackClose(CloseReason.ABORT);
                        return;
                    }
                    if (n > 0) {
                        lastActivityNanos = System.nanoTime();
                        reads++;
                        continue;
                    }
                }
                if ((n == 0 && !c.hasBufferedInput()) || reads >= MAX_READS_PER_DISPATCH) {
                    if (in.hasRemaining()) {
                        continue; // read above, never left in the buffer
                    }
                    sender.writeOwn(c);
                    c.flushOutbound();
                    sender.release();
                    c.handBackDetached(nextDeadline(), true);
                    return;
                }
            }
        } catch (WebSocketProtocolException e) {
            if (inflateCharge != null) {
                inflateCharge.failed(c.id());
            }
            failed(e, "");
            sender.startClose(e.closeCode(), e.getMessage());
            board.set(slot, SlotBoard.CLOSING);
            closeAfterFlush(c, CloseReason.ERROR);
        } catch (HandlerFailure e) {
            board.set(slot, SlotBoard.CLOSING);
            closeAfterFlush(c, CloseReason.ERROR);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM1704 WebSocket {0} ended: {1}", c.id(), e.toString());
            sender.release();
            c.handBackClose(CloseReason.ABORT);
        }
    }

    /**
     * Dispatched with a close request: a stop or a drain closes with 1001, so does an idle socket
     * past WebSocketIdleTimeout; a ping deadline only pings (the request is withdrawn).
     */
    private void deadline(ProtocolConnection c) {
        long now = System.nanoTime();
        if (c.services().isStopping() || c.services().isDraining()) {
            sender.startClose(CloseCodes.GOING_AWAY, "server going away");
        } else if (messageOverdue()) {
            return;
        } else if (now - lastActivityNanos >= settings.idleTimeout().toNanos()) {
            LOG.log(Level.DEBUG, "LM1705 WebSocket {0} idle for {1}: closing", c.id(), settings.idleTimeout());
            sender.startClose(CloseCodes.GOING_AWAY, IDLE_TIMEOUT);
        } else {
            c.withdrawCloseRequest();
            if (!settings.pingInterval().isZero() && now - lastPingNanos >= settings.pingInterval().toNanos()) {
                lastPingNanos = now;
                sender.queue(Opcode.PING, EMPTY);
            }
        }
    }

    /** The next deadline: the idle timeout, the next ping, or the message's deadline, whichever comes first. */
    private long nextDeadline() {
        long idle = messageDeadline.earlier(lastActivityNanos + settings.idleTimeout().toNanos());
        if (settings.pingInterval().isZero()) {
            return idle;
        }
        long ping = Math.max(lastActivityNanos, lastPingNanos) + settings.pingInterval().toNanos();
        return Math.min(idle, ping);
    }

    /**
     * After a read (or at a deadline): a message unfinished past WebSocketMessageTimeout closes the
     * socket with 1008 (LM2801), whatever fragments kept it from being idle. The reader's owner.
     *
     * @return whether the socket is closing for it
     */
    private boolean messageOverdue() {
        long now = System.nanoTime();
        messageDeadline.observe(reader.inMessage(), now);
        if (!messageDeadline.passed(now) || !sender.isOpen()) {
            return false;
        }
        link.services().intervalLog().log(LOG, Level.INFO,
                "LM2801 WebSocket {0} from {1}: message not finished within WebSocketMessageTimeout ({2}): closing 1008",
                link.id(), link.remoteAddress(), messageDeadline.timeout());
        sender.startClose(CloseCodes.POLICY_VIOLATION, MESSAGE_TIMEOUT);
        reader.releaseMessage();
        return true;
    }

    /** A protocol failure: a refusal of the input budget is the operator's concern (LM2800), the rest the client's (LM1702). */
    private void failed(WebSocketProtocolException e, String over) {
        if (reader.refusedByBudget()) {
            InputBudget b = link.services().inputBudget();
            link.services().intervalLog().log(LOG, Level.WARNING,
                    "LM2800 WebSocket {0}{1} from {2}: input budget exhausted ({3} of {4} bytes held): closing 1009",
                    link.id(), over, link.remoteAddress(), b.used(), b.limit());
        } else {
            LOG.log(Level.DEBUG, "LM1702 WebSocket {0}{1} from {2} failed: {3} {4}", link.id(), over,
                    link.remoteAddress(), e.closeCode(), e.getMessage());
        }
    }

    /** The socket is closing: its close frame is queued (or the connection is ending anyway). */
    private void finish(ProtocolConnection c) throws IOException {
        if (c.outbound().isClosed()) {
            // A close asked through the queue (another thread's close()) takes effect once detached.
            sender.writeOwn(c);
            sender.release();
            c.handBackDetached(0, false);
            return;
        }
        closeAfterFlush(c, IDLE_TIMEOUT.equals(sender.closeReason()) ? CloseReason.TIMEOUT : CloseReason.NORMAL);
    }

    /** Writes what is queued (the close frame last), then closes lingering (the client's close frame is read and dropped). */
    private void closeAfterFlush(ProtocolConnection c, CloseReason reason) {
        try {
            sender.writeOwn(c);
            c.flushOutbound();
        } catch (IOException e) {
            sender.release();
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        sender.release();
        c.handBackLinger(reason);
    }

    @Override
    public void onMessage(boolean text, byte[] data, int length) {
        counters.messageReceived();
        if (!sender.isOpen()) {
            return; // closing: what follows the close decision is dropped (RFC 6455 §1.4)
        }
        try {
            if (text) {
                handler.onText(this, new String(data, 0, length, StandardCharsets.UTF_8));
            } else {
                handler.onBinary(this, length == data.length ? data : Arrays.copyOf(data, length));
            }
        } catch (Exception | LinkageError | AssertionError e) {
            handlerFailed(e);
            throw new HandlerFailure();
        }
    }

    @Override
    public void onPing(byte[] payload) {
        // offer, not put: a ping flood must not grow the queue past its bound; a dropped pong is
        // allowed (RFC 6455 §5.5.3: answering only the latest ping is enough).
        sender.send(Opcode.PONG, payload, false);
    }

    @Override
    public void onPong(byte[] payload) {
        try {
            handler.onPong(this, payload);
        } catch (Exception | LinkageError | AssertionError e) {
            handlerFailed(e);
            throw new HandlerFailure();
        }
    }

    @Override
    public void onClose(int code, String reason) {
        // The client's close: answered with the same code (an empty close frame if it had none).
        sender.startClose(code, reason);
    }

    private void handlerFailed(Throwable e) {
        LOG.log(Level.ERROR, "LM1703 WebSocket handler failed on " + path + " (connection " + link.id() + ")", e);
        sender.startClose(CloseCodes.INTERNAL_ERROR, "internal error");
    }

    private void enter() {
        gate.enter();
    }

    /** The last worker to leave after the connection ended runs onClose itself. */
    private void leave() {
        if (gate.leave()) {
            notifyClosed();
        }
    }

    /** The connection ended (any path, any thread): onClose on a worker, once, when no worker is inside. */
    private void ended() {
        sender.ended();
        counters.closed();
        if (!gate.end()) {
            return; // a worker is reading or in a callback: it runs onClose as it leaves
        }
        try {
            link.services().dispatch(slot -> notifyClosed());
        } catch (RuntimeException e) {
            // The child no longer runs tasks (it stopped): the handler still hears of the close.
            Thread.ofVirtual().start(this::notifyClosed);
        }
    }

    /** onClose, once (the gate decides who runs it), after the socket's decoders are let go. */
    private void notifyClosed() {
        reader.releaseMessage(); // a message cut off by the end gives its decompressor back to the pool
        sender.end();
        try {
            handler.onClose(this, sender.closeCode(), sender.closeReason());
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.log(Level.ERROR, "LM1703 WebSocket handler failed in onClose on " + path, e);
        }
    }

    // ---- sending: any thread ----

    @Override
    public boolean sendText(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return sender.send(Opcode.TEXT, b, true);
    }

    @Override
    public boolean sendBinary(byte[] data) {
        return sender.send(Opcode.BINARY, data, true);
    }

    @Override
    public boolean sendPing(byte[] payload) {
        if (payload.length > 125) {
            throw new IllegalArgumentException("a ping carries at most 125 bytes, got " + payload.length);
        }
        return sender.send(Opcode.PING, payload, false);
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        return link.outbound().whenWritable();
    }

    @Override
    public void close(int code, String reason) {
        if (!CloseCodes.validFromPeer(code)) {
            throw new IllegalArgumentException("not a close status a server may send: " + code);
        }
        if (sender.startClose(code, reason == null ? "" : reason)) {
            // The connection ends once the close frame is written; the client's answer is drained.
            link.outbound().close(CloseReason.NORMAL, true);
        }
    }

    @Override
    public boolean isOpen() {
        return sender.isOpen();
    }

    @Override
    public long id() {
        return link.id();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public String pathParam(String name) {
        return pathParams.get(name);
    }

    @Override
    public String requestHeader(String name) {
        Headers h = handshakeHeaders;
        return h == null ? null : h.first(name);
    }

    @Override
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public boolean compressed() {
        return sender.compresses();
    }

    @Override
    public boolean isSecure() {
        return link.isSecure();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return link.remoteAddress();
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public void attachment(Object value) {
        attachment = value;
    }

    /** A handler callback threw: the reader stops, the socket closes with 1011 (already queued). */
    private static final class HandlerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandlerFailure() {
            super(null, null, false, false);
        }
    }
}
