package org.loommpm.http2;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.FrameType;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.protocol.Http2Protocol;

/**
 * Parses and acts on the frames a client sends (RFC 9113 §4-§6), mapping every violation to a
 * stream error (RST_STREAM, the connection goes on) or a connection error (thrown to the frame
 * loop, which sends GOAWAY and closes), with the codes RFC 9113 assigns. Frame loop only.
 */
final class InboundFrames {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final Session s;
    /** The stream whose header block continues in CONTINUATION frames, or 0. */
    private int blockStream;
    private boolean blockEndStream;
    /** A stream error found in the HEADERS frame, raised once its block is decoded (HPACK stays in step). */
    private Http2Error blockError;
    private boolean settingsSeen;

    InboundFrames(Session s) {
        this.s = s;
    }

    /** Whether a header block awaits CONTINUATION frames. */
    boolean inHeaderBlock() {
        return blockStream != 0;
    }

    /**
     * Processes the client preface and every whole frame in {@code in} (read mode; consumed
     * bytes are skipped, a partial frame is left).
     *
     * @return whether anything was processed
     * @throws Http2Error a connection error
     */
    boolean process(ByteBuffer in) throws Http2Error {
        boolean any = false;
        if (!s.prefaceDone) {
            byte[] preface = Http2Protocol.PREFACE;
            int n = Math.min(in.remaining(), preface.length);
            for (int i = 0; i < n; i++) {
                if (in.get(in.position() + i) != preface[i]) {
                    throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "invalid connection preface");
                }
            }
            if (n < preface.length) {
                return false;
            }
            in.position(in.position() + preface.length);
            s.prefaceDone = true;
            any = true;
        }
        byte[] a = in.array();
        int base = in.arrayOffset();
        while (in.remaining() >= FrameType.HEADER_LENGTH) {
            int p = base + in.position();
            int length = (a[p] & 0xff) << 16 | (a[p + 1] & 0xff) << 8 | (a[p + 2] & 0xff);
            int type = a[p + 3] & 0xff;
            int flags = a[p + 4] & 0xff;
            int streamId = int31(a, p + 5);
            if (length > s.limits.maxFrameSize()) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, FrameType.name(type) + " frame of "
                        + length + " bytes exceeds SETTINGS_MAX_FRAME_SIZE");
            }
            if (in.remaining() < FrameType.HEADER_LENGTH + length) {
                if (in.capacity() < FrameType.HEADER_LENGTH + length) {
                    s.c.context().growIn(FrameType.HEADER_LENGTH + s.limits.maxFrameSize());
                }
                break;
            }
            in.position(in.position() + FrameType.HEADER_LENGTH + length);
            try {
                frame(type, flags, streamId, a, p + FrameType.HEADER_LENGTH, length);
            } catch (Http2Error e) {
                if (e.isConnectionError()) {
                    throw e;
                }
                LOG.log(Level.DEBUG, "LM0707 {0} stream {1} reset {2}: {3}", s, e.streamId(), e.code(),
                        e.getMessage());
                s.resetStream(e.streamId(), e.code());
            }
            s.frameCompleted();
            any = true;
        }
        return any;
    }

    private void frame(int type, int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (!settingsSeen && type != FrameType.SETTINGS) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "the client preface must start with SETTINGS");
        }
        if (blockStream != 0 && (type != FrameType.CONTINUATION || sid != blockStream)) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, FrameType.name(type)
                    + " inside the header block of stream " + blockStream);
        }
        switch (type) {
            case FrameType.DATA -> data(flags, sid, a, p, len);
            case FrameType.HEADERS -> headers(flags, sid, a, p, len);
            case FrameType.PRIORITY -> priority(sid, a, p, len);
            case FrameType.RST_STREAM -> rstStream(sid, a, p, len);
            case FrameType.SETTINGS -> settings(flags, sid, a, p, len);
            case FrameType.PUSH_PROMISE -> throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR,
                    "a client must not send PUSH_PROMISE");
            case FrameType.PING -> ping(flags, sid, a, p, len);
            case FrameType.GOAWAY -> goAway(sid, a, p, len);
            case FrameType.WINDOW_UPDATE -> windowUpdate(sid, a, p, len);
            case FrameType.CONTINUATION -> continuation(flags, sid, a, p, len);
            default -> {
                // Unknown frame types are ignored (RFC 9113 §4.1).
            }
        }
    }

    private void data(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "DATA on stream 0");
        }
        int off = p;
        int n = len;
        int padding = 0;
        if ((flags & FrameType.FLAG_PADDED) != 0) {
            if (len < 1) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "padded DATA without pad length");
            }
            int padLength = a[p] & 0xff;
            if (padLength >= len) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "DATA padding longer than the frame");
            }
            padding = padLength + 1;
            off = p + 1;
            n = len - padding;
        }
        // The connection window covers every DATA frame, whatever happens to its stream.
        if (len > s.connRecvWindow) {
            throw Http2Error.connection(ErrorCode.FLOW_CONTROL_ERROR, "DATA beyond the connection window");
        }
        s.connRecvWindow -= len;
        if (s.connRecvWindow < Session.CONNECTION_WINDOW / 2) {
            s.batch.windowUpdate(0, (int) (Session.CONNECTION_WINDOW - s.connRecvWindow));
            s.connRecvWindow = Session.CONNECTION_WINDOW;
        }
        Stream st = s.streams.get(sid);
        if (st == null) {
            closedStreamFrame(sid, "DATA");
            return;
        }
        if (!st.state.remoteOpen()) {
            throw Http2Error.stream(sid, ErrorCode.STREAM_CLOSED, "DATA after END_STREAM");
        }
        if (len > st.recvWindow) {
            throw Http2Error.stream(sid, ErrorCode.FLOW_CONTROL_ERROR, "DATA beyond the stream window");
        }
        st.recvWindow -= len;
        if (padding > 0) {
            // Padding never reaches the handler: its window comes back at once.
            st.recvWindow += padding;
            s.batch.windowUpdate(sid, padding);
        }
        st.received += n;
        long declared = st.request.contentLength();
        if (declared >= 0 && st.received > declared) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "more DATA than content-length");
        }
        boolean end = (flags & FrameType.FLAG_END_STREAM) != 0;
        if (n == 0 && !end) {
            s.empty.emptyFrame(System.nanoTime());
        }
        if (n > 0) {
            st.body.offer(Arrays.copyOfRange(a, off, off + n));
        }
        if (end) {
            endRequest(st);
        }
    }

    /** END_STREAM from the client: the body is complete (and must match content-length). */
    private void endRequest(Stream st) throws Http2Error {
        long declared = st.request.contentLength();
        if (declared >= 0 && st.received != declared) {
            throw Http2Error.stream(st.id(), ErrorCode.PROTOCOL_ERROR, "DATA shorter than content-length");
        }
        st.on(StreamState.Event.RECV_END_STREAM);
        st.body.end();
        if (st.state == StreamState.CLOSED) {
            s.closeStream(st, false);
        }
    }

    /** A frame other than HEADERS for a stream not in the table: idle, reset by us, or closed. */
    private void closedStreamFrame(int sid, String what) throws Http2Error {
        if (sid > s.lastClientStreamId || (sid & 1) == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, what + " on idle stream " + sid);
        }
        if (Boolean.TRUE.equals(s.closed.get(sid))) {
            return; // we reset it: frames already in flight are ignored (RFC 9113 §5.1)
        }
        throw Http2Error.stream(sid, ErrorCode.STREAM_CLOSED, what + " on closed stream " + sid);
    }

    private void headers(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid == 0 || (sid & 1) == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS on stream " + sid);
        }
        int off = p;
        int end = p + len;
        if ((flags & FrameType.FLAG_PADDED) != 0) {
            if (len < 1) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "padded HEADERS without pad length");
            }
            end -= a[p] & 0xff;
            off++;
        }
        blockError = null;
        if ((flags & FrameType.FLAG_PRIORITY) != 0) {
            if (end - off < 5) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "HEADERS too short for its priority");
            }
            if (int31(a, off) == sid) {
                blockError = Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "stream depends on itself");
            }
            off += 5;
        }
        if (end < off) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS padding longer than the frame");
        }
        s.block.start(a, off, end - off);
        blockStream = sid;
        blockEndStream = (flags & FrameType.FLAG_END_STREAM) != 0;
        if ((flags & FrameType.FLAG_END_HEADERS) != 0) {
            headerBlockDone();
        }
    }

    private void continuation(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (blockStream == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "CONTINUATION without a header block");
        }
        if (len == 0) {
            s.empty.emptyFrame(System.nanoTime());
        }
        s.block.continuation(a, p, len);
        if ((flags & FrameType.FLAG_END_HEADERS) != 0) {
            headerBlockDone();
        }
    }

    private void headerBlockDone() throws Http2Error {
        int sid = blockStream;
        blockStream = 0;
        Stream st = s.streams.get(sid);
        FieldBlock f;
        try {
            f = s.hpack.decode(s.block.block(), s.block.length(), st != null);
        } catch (IOException e) {
            throw Http2Error.connection(ErrorCode.COMPRESSION_ERROR, "header block of stream " + sid + ": "
                    + e.getMessage());
        }
        if (blockError != null) {
            Http2Error e = blockError;
            blockError = null;
            throw e;
        }
        if (st != null) {
            trailers(st, f);
            return;
        }
        if (sid <= s.lastClientStreamId) {
            Boolean ours = s.closed.get(sid);
            if (Boolean.TRUE.equals(ours)) {
                return; // trailers of a stream we reset
            }
            if (ours != null) {
                throw Http2Error.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + sid);
            }
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "stream " + sid + " below the last one opened");
        }
        if (s.goAwaySent) {
            return; // after our GOAWAY no new stream starts; the client retries it elsewhere
        }
        s.lastClientStreamId = sid;
        if (f.malformed() != null) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "malformed request: " + f.malformed());
        }
        if (blockEndStream && f.contentLength() > 0) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "content-length with an empty body");
        }
        if (!s.limit.tryOpen()) {
            s.counters.streamRefused();
            s.resets.streamCancelled(System.nanoTime());
            throw Http2Error.stream(sid, ErrorCode.REFUSED_STREAM, "more than " + s.limit.max() + " streams");
        }
        Stream created = new Stream(s, sid, f, s.peerInitialWindow, s.initialRecvWindow(),
                s.protocol.config().limitRequestBody());
        s.startStream(created, blockEndStream);
    }

    private void trailers(Stream st, FieldBlock f) throws Http2Error {
        if (!st.state.remoteOpen()) {
            throw Http2Error.stream(st.id(), ErrorCode.STREAM_CLOSED, "HEADERS after END_STREAM");
        }
        if (!blockEndStream) {
            throw Http2Error.stream(st.id(), ErrorCode.PROTOCOL_ERROR, "trailers without END_STREAM");
        }
        if (f.malformed() != null) {
            throw Http2Error.stream(st.id(), ErrorCode.PROTOCOL_ERROR, "malformed trailers: " + f.malformed());
        }
        endRequest(st);
    }

    private void priority(int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "PRIORITY on stream 0");
        }
        if (len != 5) {
            throw Http2Error.stream(sid, ErrorCode.FRAME_SIZE_ERROR, "PRIORITY of " + len + " bytes");
        }
        s.control.controlFrame("PRIORITY", System.nanoTime());
        if (int31(a, p) == sid) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "stream depends on itself");
        }
        // Accepted and ignored (RFC 9113 §5.3.2): responses are scheduled round-robin.
    }

    private void rstStream(int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on stream 0");
        }
        if (len != 4) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "RST_STREAM of " + len + " bytes");
        }
        Stream st = s.streams.get(sid);
        if (st == null) {
            if (sid > s.lastClientStreamId || (sid & 1) == 0) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + sid);
            }
            return;
        }
        LOG.log(Level.DEBUG, "LM0707 {0} stream {1} reset by the client: {2}", s, sid,
                ErrorCode.describe(int31(a, p)));
        boolean answered = st.responseEnded;
        s.closeStream(st, false);
        s.counters.streamReset();
        if (!answered) {
            s.resets.streamCancelled(System.nanoTime());
        }
    }

    private void settings(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid != 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "SETTINGS on stream " + sid);
        }
        if ((flags & FrameType.FLAG_ACK) != 0) {
            if (len != 0) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS ack with a payload");
            }
            s.settingsAcked = true;
            return;
        }
        if (len % 6 != 0) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS of " + len + " bytes");
        }
        if (settingsSeen) {
            s.control.controlFrame("SETTINGS", System.nanoTime());
        }
        settingsSeen = true;
        apply(a, p, len);
        s.batch.settingsAck();
    }

    /** Applies SETTINGS parameters (from a frame, or from {@code HTTP2-Settings} on upgrade). */
    void apply(byte[] a, int p, int len) throws Http2Error {
        for (int i = p; i < p + len; i += 6) {
            int id = (a[i] & 0xff) << 8 | (a[i + 1] & 0xff);
            long v = ((long) (a[i + 2] & 0xff) << 24) | (a[i + 3] & 0xff) << 16 | (a[i + 4] & 0xff) << 8
                    | (a[i + 5] & 0xff);
            switch (id) {
                case FrameType.SETTINGS_HEADER_TABLE_SIZE -> s.hpack.peerTableSize((int) Math.min(v, Integer.MAX_VALUE));
                case FrameType.SETTINGS_ENABLE_PUSH -> {
                    if (v > 1) {
                        throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH " + v);
                    }
                }
                case FrameType.SETTINGS_INITIAL_WINDOW_SIZE -> {
                    if (v > FrameType.MAX_WINDOW) {
                        throw Http2Error.connection(ErrorCode.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE " + v);
                    }
                    s.peerInitialWindow((int) v);
                }
                case FrameType.SETTINGS_MAX_FRAME_SIZE -> {
                    if (v < FrameType.DEFAULT_MAX_FRAME_SIZE || v > 16_777_215) {
                        throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE " + v);
                    }
                    s.peerMaxFrameSize = (int) v;
                }
                default -> {
                    // MAX_CONCURRENT_STREAMS (we never push), MAX_HEADER_LIST_SIZE (advisory), unknown: ignored.
                }
            }
        }
    }

    private void ping(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid != 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "PING on stream " + sid);
        }
        if (len != 8) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "PING of " + len + " bytes");
        }
        if ((flags & FrameType.FLAG_ACK) != 0) {
            return; // we send no PINGs of our own
        }
        s.control.controlFrame("PING", System.nanoTime());
        s.batch.pingAck(Arrays.copyOfRange(a, p, p + 8));
    }

    private void goAway(int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid != 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "GOAWAY on stream " + sid);
        }
        if (len < 8) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "GOAWAY of " + len + " bytes");
        }
        s.goAwayReceived = true;
        s.counters.goawayReceived();
        LOG.log(Level.DEBUG, "LM0704 {0} GOAWAY from the client: {1}, last stream {2}", s,
                ErrorCode.describe(int31(a, p + 4)), int31(a, p));
    }

    private void windowUpdate(int sid, byte[] a, int p, int len) throws Http2Error {
        if (len != 4) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "WINDOW_UPDATE of " + len + " bytes");
        }
        int increment = int31(a, p);
        if (sid == 0) {
            if (increment == 0) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 on the connection");
            }
            s.connSendWindow += increment;
            if (s.connSendWindow > FrameType.MAX_WINDOW) {
                throw Http2Error.connection(ErrorCode.FLOW_CONTROL_ERROR, "connection window above 2^31-1");
            }
            return;
        }
        Stream st = s.streams.get(sid);
        if (st == null) {
            if (sid > s.lastClientStreamId || (sid & 1) == 0) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + sid);
            }
            return; // closed: a late update is harmless
        }
        if (increment == 0) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
        }
        st.sendWindow += increment;
        if (st.sendWindow > FrameType.MAX_WINDOW) {
            throw Http2Error.stream(sid, ErrorCode.FLOW_CONTROL_ERROR, "stream window above 2^31-1");
        }
        s.wake(st);
    }

    private static int int31(byte[] a, int p) {
        return (a[p] & 0x7f) << 24 | (a[p + 1] & 0xff) << 16 | (a[p + 2] & 0xff) << 8 | (a[p + 3] & 0xff);
    }
}
