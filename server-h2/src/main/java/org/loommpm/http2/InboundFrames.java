package org.loommpm.http2;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.loommpm.http.HeaderValidation;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.FrameListener;
import org.loommpm.http2.frame.FrameReader;
import org.loommpm.http2.frame.FrameType;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.guard.ControlFrameGuard;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.spi.InputBudget;

/**
 * Acts on the frames a client sends (RFC 9113 §5-§6): the {@link FrameReader} checks each
 * frame's layout, this listener moves stream states, windows and guards, mapping every
 * violation to a stream error (RST_STREAM, the connection goes on) or a connection error
 * (thrown to the frame loop, which sends GOAWAY and closes), with the codes RFC 9113 assigns.
 * Frame loop only.
 *
 * <p><b>The input budget.</b> A header block is charged to the child's {@link InputBudget} as its
 * fragments arrive (HEADERS, then each CONTINUATION) and released once it is decoded, or when the
 * connection ends; a refusal ends the connection with ENHANCE_YOUR_CALM, since the block cannot be
 * skipped without losing the HPACK state (LM2802). A new stream's decoded header list is charged
 * for the stream's life (released in {@link Stream#letGo}); a refusal resets only that stream with
 * REFUSED_STREAM, which a client may retry (LM2803). A request body received and not yet read
 * by its handler is charged until it is read or the stream ends (the stream's receive window
 * bounds it per stream, not across the 100 streams of each connection); a refusal resets that
 * stream with ENHANCE_YOUR_CALM (LM2805).
 */
final class InboundFrames implements FrameListener {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final Session s;
    private final FrameReader reader;
    private boolean blockEndStream;
    /** A stream error found in the HEADERS frame, raised once its block is decoded (HPACK stays in step). */
    private Http2Error blockError;
    /** What the header block being assembled holds of the input budget (any thread releases it at the end). */
    private final InputBudget.Hold blockHold;
    /** Made with the first block answered 431 (few connections ever send one). */
    private OversizedCharge oversizedCharge;

    InboundFrames(Session s) {
        this.s = s;
        this.reader = new FrameReader(this, s.limits.maxFrameSize());
        this.blockHold = new InputBudget.Hold(s.c.services().inputBudget(), InputBudget.Consumer.HEADER_BLOCK);
        s.c.outbound().closed().whenComplete((reason, failure) -> blockHold.releaseAll());
    }

    /** Whether the client connection preface has been read. */
    boolean prefaceDone() {
        return reader.prefaceDone();
    }

    /** Whether a header block awaits CONTINUATION frames. */
    boolean inHeaderBlock() {
        return reader.inHeaderBlock();
    }

    /**
     * Processes the client preface and every whole frame in {@code in} (read mode; consumed
     * bytes are skipped, a partial frame is left, and the buffer grows if it cannot hold it).
     *
     * @return whether anything was processed
     * @throws Http2Error a connection error
     */
    boolean process(ByteBuffer in) throws Http2Error {
        boolean any = reader.read(in);
        if (reader.partialFrameSize() > in.capacity()) {
            s.c.context().growIn(FrameType.HEADER_LENGTH + s.limits.maxFrameSize());
        }
        return any;
    }

    /** Resets the stream; each reset the client provoked counts like one it sent (MadeYouReset). */
    @Override
    public void streamError(Http2Error e) throws Http2Error {
        LOG.log(Level.DEBUG, "LM0707 {0} stream {1} reset {2}: {3}", s, e.streamId(), e.code(), e.getMessage());
        s.resetStream(e.streamId(), e.code());
        s.resets.streamCancelled(System.nanoTime());
    }

    @Override
    public void frameCompleted() {
        s.frameCompleted();
    }

    @Override
    public void data(int sid, byte[] a, int off, int n, int len, boolean end) throws Http2Error {
        int padding = len - n;
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
        if (n == 0 && !end) {
            s.empty.emptyFrame(System.nanoTime());
        }
        if (st.responseEnded) {
            // The response is out and nobody reads this body: it is dropped while it fits the
            // window the stream still has (a short body ends normally, and clients that drop a
            // response on RST_STREAM(NO_ERROR) still see it); once the window is used up without
            // END_STREAM the client is told the rest is not wanted (RFC 9113 §8.1).
            if (end) {
                endRequest(st);
            } else if (st.recvWindow == 0) {
                s.resetStream(sid, ErrorCode.NO_ERROR);
            }
            return;
        }
        if (n > 0) {
            byte[] copy = Arrays.copyOfRange(a, off, off + n);
            if (st.tunnel != null) {
                st.tunnel.offer(copy);
            } else if (!st.body.offer(copy)) {
                s.c.services().intervalLog().log(LOG, Level.WARNING,
                        "LM2805 {0}: input budget exhausted: stream {1}''s unread request body refused"
                                + " (RST_STREAM ENHANCE_YOUR_CALM)", s, sid);
                throw Http2Error.stream(sid, ErrorCode.ENHANCE_YOUR_CALM, "input budget exhausted by unread DATA");
            }
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
        st.requestEnded();
        if (st.state == StreamState.CLOSED) {
            s.closeStream(st, Session.Closed.ENDED);
        }
    }

    /** A frame other than HEADERS for a stream not in the table: idle, reset by us, or closed. */
    private void closedStreamFrame(int sid, String what) throws Http2Error {
        if (sid > s.lastClientStreamId || (sid & 1) == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, what + " on idle stream " + sid);
        }
        if (s.closed.get(sid) == Session.Closed.BY_OUR_RESET) {
            return; // we reset it: frames already in flight are ignored (RFC 9113 §5.1)
        }
        throw Http2Error.stream(sid, ErrorCode.STREAM_CLOSED, what + " on closed stream " + sid);
    }

    @Override
    public void headers(int sid, byte[] a, int off, int len, int dependency, boolean endStream, boolean endHeaders)
            throws Http2Error {
        blockError = dependency == sid
                ? Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "stream depends on itself") : null;
        blockHold.releaseAll();
        charge(len);
        s.block.start(a, off, len);
        blockEndStream = endStream;
        if (endHeaders) {
            headerBlockDone(sid);
        }
    }

    @Override
    public void continuation(int sid, byte[] a, int off, int len, boolean endHeaders) throws Http2Error {
        if (len == 0) {
            s.empty.emptyFrame(System.nanoTime());
        }
        charge(len);
        s.block.continuation(a, off, len);
        if (endHeaders) {
            headerBlockDone(sid);
        }
    }

    /** A header block's fragment of {@code len} bytes is about to be buffered: the budget must grant it. */
    private void charge(int len) throws Http2Error {
        if (!blockHold.grow(len)) {
            InputBudget b = s.c.services().inputBudget();
            s.c.services().intervalLog().log(LOG, Level.WARNING,
                    "LM2802 {0}: input budget exhausted ({1} of {2} bytes held) while a header block arrives:"
                            + " GOAWAY ENHANCE_YOUR_CALM", s, b.used(), b.limit());
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "input budget exhausted by a header block");
        }
    }

    private void headerBlockDone(int sid) throws Http2Error {
        Stream st = s.streams.get(sid);
        FieldBlock f;
        try {
            f = s.hpack.decode(s.block.block(), s.block.length(), st != null);
        } catch (IOException e) {
            throw Http2Error.connection(ErrorCode.COMPRESSION_ERROR, "header block of stream " + sid + ": "
                    + e.getMessage());
        } finally {
            blockHold.releaseAll();
        }
        if (f.truncated()) {
            // Answered 431 and the connection kept, but decoded to the limit for nothing: a few,
            // for the connection and for its client's address.
            if (oversizedCharge == null) {
                oversizedCharge = new OversizedCharge(s.connection().services().charges(), s.remoteAddress());
            }
            oversizedCharge.charge(s.block.length(), s);
            try {
                s.oversized.oversized(System.nanoTime());
            } catch (Http2Error e) {
                LOG.log(Level.WARNING, "LM0714 {0} sends header blocks over H2MaxHeaderListSize ({1} bytes) faster"
                        + " than H2MaxOversizedHeadersPerMinute ({2})", s, s.limits.maxHeaderListSize(),
                        s.limits.maxOversizedHeadersPerMinute());
                throw e;
            }
        }
        if (blockError != null) {
            Http2Error e = blockError;
            blockError = null;
            if (st == null && sid > s.lastClientStreamId) {
                // The HEADERS opened the stream (RFC 9113 §5.1); our reset closes it, so its later
                // frames are ignored as a reset stream's, not taken for frames on an idle one.
                s.lastClientStreamId = sid;
            }
            throw e;
        }
        if (st != null) {
            trailers(st, f);
            return;
        }
        if (sid <= s.lastClientStreamId) {
            Session.Closed how = s.closed.get(sid);
            if (how == Session.Closed.BY_OUR_RESET) {
                // Trailers of a stream we reset; each costs a decode, so a stream of them is a flood.
                s.control.controlFrame("HEADERS on a reset stream", System.nanoTime());
                return;
            }
            if (how != null) {
                throw Http2Error.connection(ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + sid);
            }
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "stream " + sid + " below the last one opened");
        }
        s.lastClientStreamId = sid;
        if (s.goAwaySent) {
            // After our GOAWAY no new stream starts (the client retries it elsewhere); its frames
            // still in flight are ignored like a reset stream's (RFC 9113 §6.8).
            s.closed.put(sid, Session.Closed.BY_OUR_RESET);
            return;
        }
        if (f.malformed() != null) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "malformed request: " + f.malformed());
        }
        if (f.protocol() != null && !s.limits.enableConnectProtocol()) {
            // RFC 8441 §3: :protocol is only for a peer that announced SETTINGS_ENABLE_CONNECT_PROTOCOL.
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, ":protocol without SETTINGS_ENABLE_CONNECT_PROTOCOL");
        }
        if (blockEndStream && f.contentLength() > 0) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "content-length with an empty body");
        }
        InputBudget.Hold fields = new InputBudget.Hold(s.c.services().inputBudget(), InputBudget.Consumer.HEADER_BLOCK);
        if (!fields.grow(listSize(f))) {
            s.c.services().intervalLog().log(LOG, Level.WARNING,
                    "LM2803 {0}: input budget exhausted: stream {1} refused (REFUSED_STREAM)", s, sid);
            throw Http2Error.stream(sid, ErrorCode.REFUSED_STREAM, "input budget exhausted");
        }
        if (!s.limit.tryOpen()) {
            fields.releaseAll();
            s.counters.streamRefused();
            int open = s.streams.size();
            if (open >= s.limit.max() && s.settingsAcked) {
                // The client broke the limit it has acknowledged: a refusal that counts as a rapid reset.
                throw Http2Error.stream(sid, ErrorCode.REFUSED_STREAM, "more than " + s.limit.max() + " streams");
            }
            // Within the limit as the client knows it: it has not seen our SETTINGS yet, or the
            // handlers of streams it saw end still hold their places (StreamLimit). Refused, but
            // not its doing, so not a rapid reset; a flood of them still costs control-frame tokens.
            LOG.log(Level.DEBUG, "LM0707 {0} stream {1} refused: {2} streams open, the handlers of ended ones"
                    + " still hold their places", s, sid, open);
            s.resetStream(sid, ErrorCode.REFUSED_STREAM);
            s.control.controlFrame("refused stream", System.nanoTime());
            return;
        }
        Stream created = new Stream(s, sid, f, s.peerInitialWindow, s.initialRecvWindow(),
                s.protocol.config().limitRequestBody());
        created.fields = fields;
        if (f.protocol() != null) {
            created.tunnel = new TunnelStream(created);
            s.tunnelStarted(created.tunnel);
        }
        s.startStream(created, blockEndStream);
    }

    /** The bytes a decoded request head holds: its fields' names and values, as HPACK counts them (RFC 7541 §4.1). */
    private static long listSize(FieldBlock f) {
        long n = 0;
        for (int i = 0; i < f.headers().size(); i++) {
            n += f.headers().name(i).length() + f.headers().value(i).length() + 32;
        }
        return n;
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
        // Kept for the handler (Request.trailers()), without the fields no trailer may carry.
        st.body.trailers(HeaderValidation.allowedTrailers(f.headers(), name -> LOG.log(Level.DEBUG,
                "LM2780 {0} stream {1}: request trailer field {2} dropped: not allowed in trailers (RFC 9110 §6.5.1)",
                s, st.id(), name)), f.truncated());
        endRequest(st);
    }

    @Override
    public void priority(int sid, int dependency) throws Http2Error {
        s.control.controlFrame("PRIORITY", System.nanoTime());
        if (dependency == sid) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "stream depends on itself");
        }
        // Accepted and ignored (RFC 9113 §5.3.2): responses are scheduled round-robin.
    }

    @Override
    public void rstStream(int sid, int code) throws Http2Error {
        Stream st = s.streams.get(sid);
        if (st == null) {
            if (sid > s.lastClientStreamId || (sid & 1) == 0) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + sid);
            }
            s.control.controlFrame("RST_STREAM on a closed stream", System.nanoTime());
            if (s.closed.containsKey(sid)) {
                s.closed.put(sid, Session.Closed.BY_CLIENT_RESET);
            }
            return;
        }
        LOG.log(Level.DEBUG, "LM0707 {0} stream {1} reset by the client: {2}", s, sid, ErrorCode.describe(code));
        boolean answered = st.responseEnded;
        s.closeStream(st, Session.Closed.BY_CLIENT_RESET);
        s.counters.streamReset();
        if (!answered) {
            s.resets.streamCancelled(System.nanoTime());
        }
    }

    @Override
    public void settingsAck() {
        s.settingsAcked = true;
    }

    @Override
    public void settings(byte[] a, int p, int len, boolean preface) throws Http2Error {
        if (!preface) {
            s.control.controlFrame("SETTINGS", System.nanoTime());
        }
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

    @Override
    public void ping(byte[] a, int p, boolean ack) throws Http2Error {
        if (ack) {
            return; // we send no PINGs of our own
        }
        s.control.controlFrame("PING", System.nanoTime());
        s.batch.pingAck(Arrays.copyOfRange(a, p, p + 8));
    }

    @Override
    public void goAway(int lastStreamId, int code) {
        s.goAwayReceived = true;
        s.counters.goawayReceived();
        LOG.log(Level.DEBUG, "LM0704 {0} GOAWAY from the client: {1}, last stream {2}", s,
                ErrorCode.describe(code), lastStreamId);
    }

    @Override
    public void windowUpdate(int sid, int increment) throws Http2Error {
        if (sid == 0) {
            if (increment == 0) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 on the connection");
            }
            smallUpdate(increment);
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
            if (increment == 0) {
                throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
            }
            if (s.closed.get(sid) == Session.Closed.BY_CLIENT_RESET) {
                throw Http2Error.stream(sid, ErrorCode.STREAM_CLOSED, "WINDOW_UPDATE after RST_STREAM");
            }
            // A late update crossing our END_STREAM is harmless; a stream of them is a flood.
            s.control.controlFrame("WINDOW_UPDATE on a closed stream", System.nanoTime());
            return;
        }
        if (increment == 0) {
            throw Http2Error.stream(sid, ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
        }
        smallUpdate(increment);
        st.sendWindow += increment;
        if (st.sendWindow > FrameType.MAX_WINDOW) {
            throw Http2Error.stream(sid, ErrorCode.FLOW_CONTROL_ERROR, "stream window above 2^31-1");
        }
        s.outbound.wake(st);
    }

    /** A WINDOW_UPDATE of a few bytes does the client no good and costs us a frame each: a +1 flood. */
    private void smallUpdate(int increment) throws Http2Error {
        if (increment < ControlFrameGuard.SMALL_WINDOW_UPDATE) {
            s.control.controlFrame("WINDOW_UPDATE", System.nanoTime());
        }
    }
}
