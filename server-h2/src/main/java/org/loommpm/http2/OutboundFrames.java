package org.loommpm.http2;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.hpack.HpackCodec;

/**
 * The connection's output side: the stream tasks' outbound queue, and the framing of what they
 * queued into the {@link OutputBatch} within the flow-control windows, one frame per stream per
 * pass (the counterpart of {@link InboundFrames}; the {@link Session} writes the batch).
 *
 * <p><b>Threads.</b> {@link #offer} is called from any thread (a stream task, or the frame loop
 * itself for an inline handler): the queue is MPSC, lock-free, and an item is immutable for its
 * producer once offered (see {@link Out}). Everything else (polling the queue, the streams'
 * pending lists, the ready round, the windows, HPACK encoding) is frame loop only: the worker
 * that owns the connection at the time, as for the rest of the {@link Session}.
 */
final class OutboundFrames {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    private static final long MAX_BATCH = 256 * 1024;
    private static final byte[] EMPTY = new byte[0];

    private final Session session;
    /** MPSC: stream tasks (any thread) offer items; only the frame loop polls. */
    private final ConcurrentLinkedQueue<Out> queue = new ConcurrentLinkedQueue<>();
    /** Frame loop: the streams with pending output and window to frame it, in round-robin order. */
    private final ArrayDeque<Stream> ready = new ArrayDeque<>();
    /** Frame loop, within one pass of {@link #schedule}: the streams the connection window stopped, in order. */
    private final ArrayDeque<Stream> connectionBlocked = new ArrayDeque<>();

    OutboundFrames(Session session) {
        this.session = session;
    }

    /** Task side: queues an item for the frame loop (the caller signals the connection). Any thread. */
    void offer(Out o) {
        queue.offer(o);
    }

    /** Whether nothing is queued that the loop has not taken yet. */
    boolean queueEmpty() {
        return queue.isEmpty();
    }

    /** Whether no stream waits in the ready round. */
    boolean readyEmpty() {
        return ready.isEmpty();
    }

    /** The connection ends: queued items are dropped, a lent DATA payload released to its task. */
    void dropQueued() {
        Out o;
        while ((o = queue.poll()) != null) {
            if (o.kind == Out.Kind.DATA) {
                o.stream.written(o.len);
            }
        }
    }

    /** A stream's window opened: frame its pending output again. */
    void wake(Stream s) {
        if (!s.scheduled && !s.pending.isEmpty()) {
            s.scheduled = true;
            ready.add(s);
        }
    }

    /** Moves queued items to their streams; returns whether there were any. */
    boolean drain() {
        boolean any = false;
        Out o;
        while ((o = queue.poll()) != null) {
            any = true;
            Stream s = o.stream;
            if (o.kind == Out.Kind.WINDOW_UPDATE) {
                if (session.streams.get(s.id()) == s && s.state.remoteOpen()) {
                    s.recvWindow += o.value;
                    session.batch.windowUpdate(s.id(), o.value);
                }
                continue;
            }
            if (o.kind == Out.Kind.TUNNEL_OPENED) {
                if (session.streams.get(s.id()) == s) {
                    session.waitUntil(s.tunnel.armed(System.nanoTime()));
                }
                continue;
            }
            if (s.state == StreamState.CLOSED) {
                if (o.kind == Out.Kind.DATA) {
                    s.written(o.len);
                }
                continue;
            }
            if (o.kind == Out.Kind.RST) {
                // At once, not behind output waiting for window: the reset drops that output
                // anyway, and a client that grants no window would otherwise never hear it.
                session.resetStream(s.id(), codeOf(o.value));
                continue;
            }
            s.pending.add(o);
            if (!s.scheduled) {
                s.scheduled = true;
                ready.add(s);
            }
        }
        return any;
    }

    /**
     * Frames pending output round-robin, one frame per stream per pass, within the windows. A
     * stream the connection window stopped keeps its turn, ahead of those that moved in the pass:
     * rotated behind them, the stream first in the round would take every opening of a window the
     * client grants a frame at a time, until its whole body is out (and the others stall).
     */
    void schedule() throws IOException {
        while (!ready.isEmpty() && session.batch.size() < MAX_BATCH) {
            boolean moved = false;
            for (int i = ready.size(); i > 0 && session.batch.size() < MAX_BATCH; i--) {
                Stream s = ready.poll();
                int r = emit(s);
                moved |= r == MOVED;
                if (s.state == StreamState.CLOSED || s.pending.isEmpty() || r == BLOCKED_STREAM) {
                    s.scheduled = false; // a WINDOW_UPDATE or new output puts it back
                } else if (r == BLOCKED_CONNECTION) {
                    connectionBlocked.add(s);
                } else {
                    ready.add(s);
                }
            }
            while (!connectionBlocked.isEmpty()) {
                ready.addFirst(connectionBlocked.pollLast());
            }
            if (!moved) {
                return;
            }
        }
    }

    private static final int MOVED = 0;
    private static final int BLOCKED_STREAM = 1;
    private static final int BLOCKED_CONNECTION = 2;

    private int emit(Stream s) throws IOException {
        Out o = s.pending.peek();
        if (o == null || s.state == StreamState.CLOSED) {
            return BLOCKED_STREAM;
        }
        switch (o.kind) {
            case HEADERS -> {
                s.pending.poll();
                writeHeaders(s, o);
                if (o.endStream) {
                    endLocal(s);
                }
                return MOVED;
            }
            case DATA, FILE -> {
                long left = o.kind == Out.Kind.DATA ? o.len : o.file.remaining();
                if (left == 0) {
                    s.pending.poll();
                    if (o.endStream) {
                        session.batch.data(s, EMPTY, 0, 0, true);
                        endLocal(s);
                    }
                    return MOVED;
                }
                long window = Math.min(s.sendWindow, session.connSendWindow);
                if (window <= 0) {
                    session.waiting(s, System.nanoTime());
                    return s.sendWindow <= 0 ? BLOCKED_STREAM : BLOCKED_CONNECTION;
                }
                s.waitingSince = 0;
                int n = (int) Math.min(Math.min(left, window), session.peerMaxFrameSize);
                if (o.kind == Out.Kind.DATA) {
                    session.batch.data(s, o.data, o.off, n, n == left && o.endStream);
                    o.off += n;
                    o.len -= n;
                } else {
                    n = frameFile(s, o.file, n);
                    if (n < 0) {
                        return MOVED;
                    }
                }
                s.sendWindow -= n;
                session.connSendWindow -= n;
                if (n == left) {
                    s.pending.poll();
                    if (o.endStream) {
                        endLocal(s);
                    }
                }
                return MOVED;
            }
            default -> throw new IllegalStateException("unexpected item " + o.kind);
        }
    }

    /**
     * Frames up to {@code max} bytes of a file body (the last frame carries END_STREAM), reading
     * its next chunk if needed; a file that cannot be read any more resets the stream (its head
     * promised a length).
     *
     * @return the bytes framed, or -1 when the stream was reset
     */
    private int frameFile(Stream s, FileBody file, int max) {
        int n;
        try {
            n = file.take(max);
        } catch (IOException e) {
            LOG.log(Level.ERROR, "LM0712 {0} stream {1}: file body failed: {2}", session, s.id(), e.toString());
            session.resetStream(s.id(), ErrorCode.INTERNAL_ERROR);
            return -1;
        }
        session.batch.ownData(s.id(), file.array(), file.offset(), n, n == file.remaining());
        file.advance(n);
        return n;
    }

    private static ErrorCode codeOf(int code) {
        for (ErrorCode e : ErrorCode.values()) {
            if (e.code() == code) {
                return e;
            }
        }
        return ErrorCode.INTERNAL_ERROR;
    }

    /** Encodes a response head into HEADERS and as many CONTINUATION frames as the peer's frame size needs. */
    private void writeHeaders(Stream s, Out o) throws IOException {
        HpackCodec.Encoded encoded = session.hpack.encode(o.value, o.headers);
        session.batch.headerBlock(s.id(), encoded.array(), encoded.size(), o.endStream, session.peerMaxFrameSize);
    }

    /**
     * The response's END_STREAM is in the batch: the stream closes on our side. If the request is
     * still open it stays half-closed (local) rather than being reset at once, so the client's
     * late frames on it are still checked (a window overflow, a WINDOW_UPDATE of 0, more DATA
     * than its content-length each get their own error, not a silent drop after our reset): its
     * END_STREAM closes it; the body nobody will read is dropped while it fits the stream's
     * remaining window, and a client that used up that window without END_STREAM (at once, or
     * later) gets RST_STREAM(NO_ERROR) (RFC 9113 §8.1); {@code H2StallTimeout} bounds the wait.
     */
    private void endLocal(Stream s) {
        s.responseEnded = true;
        session.counters.responseCompleted();
        boolean requestOpen = s.state.remoteOpen();
        s.on(StreamState.Event.SEND_END_STREAM);
        if (requestOpen && s.recvWindow > 0) {
            s.body.cancel();
            session.waiting(s, System.nanoTime());
        } else if (requestOpen) {
            // The client has used its whole window and waits for us: nothing it could still send
            // may carry an error, so it is told at once that the rest is not wanted.
            session.resetStream(s.id(), ErrorCode.NO_ERROR);
        } else {
            session.closeStream(s, Session.Closed.ENDED);
        }
    }
}
