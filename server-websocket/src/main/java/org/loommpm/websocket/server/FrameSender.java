package org.loommpm.websocket.server;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.websocket.deflate.DeflateParams;
import org.loommpm.websocket.deflate.MessageDeflater;
import org.loommpm.websocket.deflate.ZlibPool;
import org.loommpm.websocket.frame.CloseCodes;
import org.loommpm.websocket.frame.FrameWriter;
import org.loommpm.websocket.frame.Opcode;

/**
 * A WebSocket's sending side, for its {@link WebSocketConnection}: encodes (and compresses) the
 * frames, keeps the owner's or queues them, and holds the state, which decides the close so that
 * exactly one close frame is sent and no frame follows it.
 *
 * <p><b>Who owns what.</b> {@link #send}, {@link #queue} and {@link #startClose} are any
 * thread's: a frame is encoded (and compressed) on the sender's thread and offered to the link's
 * {@link OutboundQueue}, which the connection's poller (or the owning worker) writes. The owner's
 * batch ({@link #writeOwn}, {@link #hasOwn}) and {@link #claim}/{@link #release} are the worker's
 * that owns the HTTP/1.1 connection (a thread in {@link WebSocketConnection#serve}): that worker's
 * messages (without context takeover), pings and pongs are kept in its batch instead of queued; a
 * close frame always goes through the queue. With context takeover the compressor is shared by
 * the senders under {@link #contextLock}.
 *
 * <p><b>States</b> ({@link #state}, atomic updates; any thread): {@code OPEN -> CLOSING} when a close frame
 * is queued (by the client's close, {@link WebSocketConnection#close}, a failure, the idle timeout or a stop;
 * exactly one of them wins and its close frame is the only one sent) {@code -> CLOSED}
 * when the connection has ended. The same word counts the senders inside their queueing section
 * ({@link #enterSend}: added before the state is looked at, taken back when not {@code OPEN}):
 * a sender stays only while {@code OPEN}, and the winner of the close decision
 * waits until the senders already inside have queued their frames before it queues the close
 * frame, so no frame follows the close frame on the wire. (The owner's own frames need no
 * count: they are written before anything queued.) After {@code OPEN} no send is accepted.
 */
final class FrameSender {
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    /** Both state bits: a close decision ({@code | CLOSING}) leaves it as it is. */
    private static final int CLOSED = 3;
    /** The state's low bits; the rest counts senders inside their queueing section, one {@link #SENDER} each. */
    private static final int STATE_BITS = 3;
    private static final int SENDER = 4;
    /** Spins with {@link Thread#onSpinWait} before yielding while senders finish their offers. */
    private static final int SPINS = 64;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(FrameSender.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The HTTP/1.1 connection, or {@code null} over an HTTP/2 stream: only an HTTP/1.1 owner keeps
     * its frames and writes them itself ({@link #owner} is never set over HTTP/2).
     */
    private final ProtocolConnection connection;
    /** Where frames go: the HTTP/1.1 connection, or the HTTP/2 stream. */
    private final Tunnel link;
    /** Where the messages sent are counted. */
    private final WebSocketCounters counters;
    /** Compresses outgoing messages when permessage-deflate was agreed, else {@code null}. */
    private final MessageDeflater deflater;
    /** Serialises compress-and-queue when the compressor keeps its context, else {@code null}. */
    private final ReentrantLock contextLock;

    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    /** The status onClose reports, written by the winner of OPEN -> CLOSING. */
    private volatile int closeCode = CloseCodes.ABNORMAL;
    private volatile String closeReason = "";
    /**
     * The worker thread serving the socket now, else {@code null}: set and cleared by that thread
     * only, and compared only with the current thread (which always sees its own writes), so a
     * plain field suffices.
     */
    private Thread owner;
    /** Frames the owner sent from its callbacks, written when its read batch ends. Owner only. */
    private ByteBuffer[] own;
    private int ownCount;
    private long ownBytes;

    FrameSender(ProtocolConnection connection, Tunnel link, DeflateParams deflate, WebSocketCounters counters) {
        this.connection = connection;
        this.link = link;
        this.counters = counters;
        this.deflater = deflate == null ? null : new MessageDeflater(deflate, ZlibPool.SHARED);
        this.contextLock = deflate != null && !deflate.serverNoContextTakeover() ? new ReentrantLock() : null;
    }

    /** {@return whether permessage-deflate was agreed} */
    boolean compresses() {
        return deflater != null;
    }

    // ---- the state: any thread ----

    /** {@return whether the socket is {@code OPEN}: the state without the sender count} */
    boolean isOpen() {
        return ((int) STATE.getVolatile(this) & STATE_BITS) == OPEN;
    }

    /** {@return the status onClose reports: the close winner's, else 1006} */
    int closeCode() {
        return closeCode;
    }

    /** {@return the reason that goes with {@link #closeCode()}} */
    String closeReason() {
        return closeReason;
    }

    /** Queues the server's close frame unless one was already queued (toClosing decides). */
    boolean startClose(int code, String reason) {
        if (!toClosing()) {
            return false;
        }
        closeCode = code;
        closeReason = reason;
        queue(Opcode.CLOSE, null);
        return true;
    }

    /**
     * {@code OPEN -> CLOSING} (the caller then queues the close frame, or ends the socket): the
     * bit is set keeping the sender count, and the winner waits until the senders inside their section
     * have left it. A section is one non-blocking offer (or a put with compression, under
     * context takeover), so the wait is short; no sender stays in after the bit is set.
     *
     * @return whether this caller won
     */
    boolean toClosing() {
        // Wait-free: OPEN (00) becomes CLOSING (01); CLOSING and CLOSED (11) stay as they are.
        if (((int) STATE.getAndBitwiseOr(this, CLOSING) & STATE_BITS) != OPEN) {
            return false;
        }
        for (int spins = 0; (int) STATE.getVolatile(this) >>> 2 != 0; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return true;
    }

    /** The connection ended (any path, any thread): {@code CLOSED}, whatever the state was. */
    void ended() {
        STATE.getAndBitwiseOr(this, CLOSED); // the sender count is kept: senders inside still leave their section
    }

    /**
     * Enters the queueing section of a send from a thread that does not own the socket.
     *
     * @return {@code false} once the socket is no longer {@code OPEN} (nothing may be queued)
     */
    private boolean enterSend() {
        if (((int) STATE.getAndAdd(this, SENDER) & STATE_BITS) == OPEN) {
            return true;
        }
        exitSend();
        return false;
    }

    private void exitSend() {
        STATE.getAndAdd(this, -SENDER);
    }

    private byte[] closeFrame() {
        return closeCode == CloseCodes.NO_STATUS ? FrameWriter.close(CloseCodes.NO_STATUS, "")
                : FrameWriter.close(closeCode, closeReason);
    }

    // ---- sending: any thread ----

    /**
     * Sends a frame ({@code message}: a text or binary message, counted and compressed when
     * deflate was agreed); what the queue has no room for is refused.
     *
     * @return whether the frame was kept or queued
     */
    boolean send(int opcode, byte[] payload, boolean message) {
        if (!isOpen()) {
            return false;
        }
        if (owner == Thread.currentThread() && contextLock == null) {
            // From the owner's own callbacks: kept and written when its batch ends, without the
            // queue (and its poke of the poller). Not with context takeover, whose compressed
            // messages must reach the wire in the order they were compressed, whoever sends them.
            boolean z = message && deflater != null && deflater.compresses(payload.length);
            byte[] p = z ? deflater.compress(payload, 0, payload.length) : payload;
            keepOwn(FrameWriter.frame(opcode, z, p, 0, p.length));
            if (message) {
                counters.messageSent();
            }
            return true;
        }
        OutboundQueue q = link.outbound();
        boolean queued;
        // Encoded (and compressed, without context takeover) before the section, which holds
        // only the offer: a close waits for the senders inside it (see toClosing).
        byte[] frame = null;
        if (!message || deflater == null || !deflater.compresses(payload.length)) {
            frame = FrameWriter.frame(opcode, false, payload, 0, payload.length);
        } else if (contextLock == null) {
            byte[] z = deflater.compress(payload, 0, payload.length);
            frame = FrameWriter.frame(opcode, true, z, 0, z.length);
        }
        if (!enterSend()) {
            return false; // a close frame is queued (or about to be): nothing may follow it
        }
        try {
            queued = frame != null ? q.offer(ByteBuffer.wrap(frame)) : sendWithContext(q, opcode, payload);
        } catch (IOException e) {
            return false; // closed meanwhile
        } finally {
            exitSend();
        }
        if (queued && message) {
            counters.messageSent();
        }
        return queued;
    }

    /**
     * With context takeover every compressed message depends on the ones before it, so one that
     * is compressed must be sent: the room is checked first, under the lock that orders senders
     * (only senders add to the queue, and they hold the lock), and the frame is then put.
     */
    private boolean sendWithContext(OutboundQueue q, int opcode, byte[] payload) throws IOException {
        contextLock.lock();
        try {
            long queued = q.queuedBytes();
            if (queued > 0 && queued + payload.length > q.limit()) {
                return false;
            }
            byte[] z = deflater.compress(payload, 0, payload.length);
            q.put(ByteBuffer.wrap(FrameWriter.frame(opcode, true, z, 0, z.length)));
            return true;
        } finally {
            contextLock.unlock();
        }
    }

    /**
     * Queues a control frame whatever the budget (close: must not be lost; a server ping is tiny).
     * The owner keeps its pings and pongs with its other frames; a close frame always goes through
     * the queue, after the owner's frames, so nothing follows it.
     */
    void queue(int opcode, byte[] payload) {
        byte[] frame = opcode == Opcode.CLOSE ? closeFrame() : FrameWriter.frame(opcode, false, payload, 0, payload.length);
        if (owner == Thread.currentThread()) {
            if (opcode != Opcode.CLOSE) {
                keepOwn(frame);
                return;
            }
            try {
                writeOwn(connection);
            } catch (IOException e) {
                return; // the client is gone
            }
        }
        try {
            link.outbound().put(ByteBuffer.wrap(frame));
        } catch (IOException e) {
            // The connection ended meanwhile: nothing to tell the client.
        }
    }

    /** Lets the compressor go, once the socket has ended (onClose is next). */
    void end() {
        if (contextLock != null) {
            // A sender on another thread may be compressing with the kept context right now.
            contextLock.lock();
            try {
                deflater.end();
            } finally {
                contextLock.unlock();
            }
        } else if (deflater != null) {
            deflater.end();
        }
    }

    // ---- the owner's batch: the worker holding the HTTP/1.1 connection ----

    /** The current thread, a worker dispatched to serve the connection, owns the socket now. */
    void claim() {
        owner = Thread.currentThread();
    }

    /**
     * The owner stops being one: called right before each hand-back, never after it (another
     * worker may own the socket by then and have set the field for itself).
     */
    void release() {
        owner = null;
    }

    /** Whether the owner kept frames it has not written yet. Owner only. */
    boolean hasOwn() {
        return ownCount > 0;
    }

    /**
     * Writes the frames the owner sent from its callbacks (one gathering write), then what other
     * threads queued: a close frame is always queued (see {@link #queue}), so it goes last. Owner only.
     */
    void writeOwn(ProtocolConnection c) throws IOException {
        if (ownCount > 0) {
            ByteBuffer[] frames = ownCount == own.length ? own : Arrays.copyOf(own, ownCount);
            own = null;
            ownCount = 0;
            ownBytes = 0;
            c.write(frames);
        }
    }

    /** Keeps a frame the owner sends, to write with the rest of its batch; a large batch is written at once. */
    private void keepOwn(byte[] frame) {
        if (own == null) {
            own = new ByteBuffer[4];
        } else if (ownCount == own.length) {
            own = Arrays.copyOf(own, ownCount * 2);
        }
        own[ownCount++] = ByteBuffer.wrap(frame);
        ownBytes += frame.length;
        if (ownBytes >= link.outbound().limit()) {
            try {
                writeOwn(connection); // parks this worker while the socket is full: it is the owner's to wait
            } catch (IOException e) {
                // The client is gone: the next read finds it.
            }
        }
    }
}
