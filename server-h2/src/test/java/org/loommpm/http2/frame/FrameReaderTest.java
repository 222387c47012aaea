package org.loommpm.http2.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frame layer alone: what a {@link FrameReader} hands its listener for well-formed frames
 * (padding removed, priority fields parsed, partial frames left), and the RFC 9113 code of every
 * layout violation. The listener records calls as text.
 */
class FrameReaderTest {
    private static final int MAX = 16_384;

    /** Records each call; throws a stream error for DATA on stream 13 (to show the reader goes on). */
    private static final class Recorder implements FrameListener {
        final List<String> calls = new ArrayList<>();

        @Override
        public void data(int sid, byte[] a, int off, int len, int flowLength, boolean end) throws Http2Error {
            if (sid == 13) {
                throw Http2Error.stream(sid, ErrorCode.STREAM_CLOSED, "test");
            }
            calls.add("data " + sid + " " + new String(a, off, len) + " flow=" + flowLength + " end=" + end);
        }

        @Override
        public void headers(int sid, byte[] a, int off, int len, int dependency, boolean end, boolean endHeaders) {
            calls.add("headers " + sid + " " + new String(a, off, len) + " dep=" + dependency + " end=" + end
                    + " endHeaders=" + endHeaders);
        }

        @Override
        public void continuation(int sid, byte[] a, int off, int len, boolean endHeaders) {
            calls.add("continuation " + sid + " " + new String(a, off, len) + " endHeaders=" + endHeaders);
        }

        @Override
        public void priority(int sid, int dependency) {
            calls.add("priority " + sid + " dep=" + dependency);
        }

        @Override
        public void rstStream(int sid, int code) {
            calls.add("rst " + sid + " " + Integer.toHexString(code));
        }

        @Override
        public void settings(byte[] a, int off, int len, boolean preface) {
            calls.add("settings " + len / 6 + (preface ? " preface" : ""));
        }

        @Override
        public void settingsAck() {
            calls.add("settingsAck");
        }

        @Override
        public void ping(byte[] a, int off, boolean ack) {
            calls.add("ping " + new String(a, off, 8) + " ack=" + ack);
        }

        @Override
        public void goAway(int lastStreamId, int code) {
            calls.add("goaway " + lastStreamId + " " + code);
        }

        @Override
        public void windowUpdate(int sid, int increment) {
            calls.add("window " + sid + " " + increment);
        }

        @Override
        public void streamError(Http2Error e) {
            calls.add("streamError " + e.streamId() + " " + e.code());
        }

        @Override
        public void frameCompleted() {
            calls.add("|");
        }
    }

    private static byte[] frame(int type, int flags, int sid, byte[] payload) {
        return TestFrames.frame(type, flags, sid, payload);
    }

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static final byte[] SETTINGS = frame(FrameType.SETTINGS, 0, 0, bytes(0, 4, 0, 1, 0, 0));

    /** The preface and the client's SETTINGS, then {@code frames}. */
    private static ByteBuffer session(byte[]... frames) {
        return ByteBuffer.wrap(concat(FrameReader.preface(), SETTINGS, concat(frames)));
    }

    private static List<String> read(byte[]... frames) throws Http2Error {
        Recorder r = new Recorder();
        FrameReader reader = new FrameReader(r, MAX);
        ByteBuffer in = session(frames);
        assertTrue(reader.read(in));
        assertFalse(in.hasRemaining());
        return r.calls.subList(2, r.calls.size());
    }

    private static Http2Error error(byte[]... frames) {
        return assertThrows(Http2Error.class, () -> read(frames));
    }

    private static void assertConnectionError(ErrorCode code, byte[]... frames) {
        Http2Error e = error(frames);
        assertTrue(e.isConnectionError(), e.getMessage());
        assertEquals(code, e.code(), e.getMessage());
    }

    @Test
    void wellFormedFramesReachTheListenerWithTheirFields() throws Http2Error {
        assertEquals(List.of(
                "headers 1 abc dep=-1 end=false endHeaders=false", "|",
                "continuation 1 de endHeaders=true", "|",
                "data 1 xy flow=5 end=true", "|",
                "headers 3 hb dep=1 end=true endHeaders=true", "|",
                "priority 5 dep=3", "|",
                "rst 3 ffffffff", "|",
                "ping 12345678 ack=false", "|",
                "window 0 1000", "|",
                "goaway 7 2", "|",
                "settingsAck", "|",
                "settings 1", "|",
                "|"),
                read(frame(FrameType.HEADERS, 0, 1, "abc".getBytes()),
                        frame(FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1, "de".getBytes()),
                        frame(FrameType.DATA, FrameType.FLAG_PADDED | FrameType.FLAG_END_STREAM, 1,
                                bytes(2, 'x', 'y', 0, 0)),
                        frame(FrameType.HEADERS, FrameType.FLAG_PADDED | FrameType.FLAG_PRIORITY | FrameType.FLAG_END_HEADERS
                                | FrameType.FLAG_END_STREAM, 3, bytes(1, 0x80, 0, 0, 1, 16, 'h', 'b', 0)),
                        frame(FrameType.PRIORITY, 0, 5, bytes(0, 0, 0, 3, 16)),
                        frame(FrameType.RST_STREAM, 0, 3, bytes(0xff, 0xff, 0xff, 0xff)),
                        frame(FrameType.PING, 0, 0, "12345678".getBytes()),
                        frame(FrameType.WINDOW_UPDATE, 0, 0, bytes(0x80, 0, 0x03, 0xe8)),
                        frame(FrameType.GOAWAY, 0, 0, bytes(0, 0, 0, 7, 0, 0, 0, 2)),
                        frame(FrameType.SETTINGS, FrameType.FLAG_ACK, 0, new byte[0]),
                        SETTINGS,
                        frame(0x42, 0xff, 9, "unknown types are skipped".getBytes())));
    }

    @Test
    void aStreamErrorResetsThatStreamAndTheReaderGoesOn() throws Http2Error {
        assertEquals(List.of("streamError 13 STREAM_CLOSED", "|", "streamError 7 FRAME_SIZE_ERROR", "|",
                "window 1 5", "|"),
                read(frame(FrameType.DATA, 0, 13, "x".getBytes()),
                        frame(FrameType.PRIORITY, 0, 7, bytes(0, 0, 0, 3)),
                        frame(FrameType.WINDOW_UPDATE, 0, 1, bytes(0, 0, 0, 5))));
    }

    @Test
    void aPartialFrameIsLeftAndItsSizeReported() throws Http2Error {
        Recorder r = new Recorder();
        FrameReader reader = new FrameReader(r, MAX);
        byte[] data = frame(FrameType.DATA, 0, 1, new byte[100]);
        byte[] all = concat(FrameReader.preface(), SETTINGS, data);
        // The preface alone, in two pieces.
        ByteBuffer in = ByteBuffer.wrap(all, 0, 10);
        assertFalse(reader.read(in));
        assertEquals(0, in.position());
        assertFalse(reader.prefaceDone());
        in = ByteBuffer.wrap(all, 0, all.length - 50);
        assertTrue(reader.read(in));
        assertTrue(reader.prefaceDone());
        assertEquals(109, reader.partialFrameSize());
        assertEquals(all.length - data.length, in.position());
        assertEquals(List.of("settings 1 preface", "|"), r.calls);
        in.limit(all.length);
        assertTrue(reader.read(in));
        assertEquals(0, reader.partialFrameSize());
        assertEquals("data 1 " + new String(new byte[100]) + " flow=100 end=false", r.calls.get(2));
    }

    @Test
    void theConnectionMustOpenWithThePrefaceAndSettings() {
        Recorder r = new Recorder();
        Http2Error e = assertThrows(Http2Error.class,
                () -> new FrameReader(r, MAX).read(ByteBuffer.wrap("PRI * HTTP/1.1\r\n".getBytes())));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.code());
        byte[] ping = frame(FrameType.PING, 0, 0, new byte[8]);
        e = assertThrows(Http2Error.class, () -> new FrameReader(r, MAX)
                .read(ByteBuffer.wrap(concat(FrameReader.preface(), ping))));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.code());
        assertTrue(e.getMessage().contains("must start with SETTINGS"), e.getMessage());
    }

    @Test
    void everyLayoutViolationHasItsCode() {
        byte[] none = new byte[0];
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.DATA, 0, 1, new byte[MAX + 1]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.DATA, 0, 0, none));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.DATA, FrameType.FLAG_PADDED, 1, none));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.DATA, FrameType.FLAG_PADDED, 1, bytes(2, 0)));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.HEADERS, FrameType.FLAG_END_HEADERS, 2, none));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.HEADERS, FrameType.FLAG_END_HEADERS, 0, none));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.HEADERS, FrameType.FLAG_PADDED, 1, none));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.HEADERS, FrameType.FLAG_PADDED, 1, bytes(3, 0)));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.HEADERS, FrameType.FLAG_PRIORITY, 1,
                bytes(0, 0, 0, 1)));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.PRIORITY, 0, 0, new byte[5]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.RST_STREAM, 0, 0, new byte[4]));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.RST_STREAM, 0, 1, new byte[3]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.SETTINGS, 0, 1, none));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.SETTINGS, FrameType.FLAG_ACK, 0, new byte[6]));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.SETTINGS, 0, 0, new byte[7]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.PUSH_PROMISE, FrameType.FLAG_END_HEADERS, 1,
                new byte[4]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.PING, 0, 1, new byte[8]));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.PING, 0, 0, new byte[7]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.GOAWAY, 0, 1, new byte[8]));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.GOAWAY, 0, 0, new byte[7]));
        assertConnectionError(ErrorCode.FRAME_SIZE_ERROR, frame(FrameType.WINDOW_UPDATE, 0, 0, new byte[5]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, frame(FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1,
                none));
    }

    @Test
    void aHeaderBlockAllowsOnlyItsOwnContinuation() {
        byte[] open = frame(FrameType.HEADERS, 0, 1, "a".getBytes());
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, open, frame(FrameType.PING, 0, 0, new byte[8]));
        assertConnectionError(ErrorCode.PROTOCOL_ERROR, open,
                frame(FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 3, none()));
        Http2Error e = error(open, frame(FrameType.DATA, 0, 1, none()));
        assertTrue(e.getMessage().contains("DATA inside the header block of stream 1"), e.getMessage());
    }

    @Test
    void theBlockEndsWithEndHeadersSoTheNextFrameIsFree() throws Http2Error {
        Recorder r = new Recorder();
        FrameReader reader = new FrameReader(r, MAX);
        reader.read(session(frame(FrameType.HEADERS, 0, 1, "a".getBytes())));
        assertTrue(reader.inHeaderBlock());
        reader.read(ByteBuffer.wrap(concat(frame(FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1, none()),
                frame(FrameType.PING, 0, 0, "abcdefgh".getBytes()))));
        assertFalse(reader.inHeaderBlock());
        assertArrayEquals(new String[] {"ping abcdefgh ack=false", "|"},
                Arrays.copyOfRange(r.calls.toArray(new String[0]), r.calls.size() - 2, r.calls.size()));
    }

    @Test
    void wholeFramesWithOneHeaderBlockAreToldApartFromWhatAPollerTurnDeclines() {
        byte[] headers = frame(FrameType.HEADERS, FrameType.FLAG_END_HEADERS | 0x1, 1, "h".getBytes());
        byte[] ping = frame(FrameType.PING, 0, 0, new byte[8]);
        byte[] window = frame(FrameType.WINDOW_UPDATE, 0, 0, bytes(0, 0, 1, 0));
        assertTrue(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(concat(window, headers, ping))));
        assertTrue(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(concat(ping, window))), "no header block");
        assertFalse(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(concat(headers, headers))), "two blocks");
        assertFalse(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(
                frame(FrameType.HEADERS, 0x1, 1, "h".getBytes()))), "a block that CONTINUATION goes on");
        assertFalse(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(
                frame(FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1, "h".getBytes()))), "CONTINUATION");
        assertFalse(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(Arrays.copyOf(ping, ping.length - 1))),
                "a frame whose payload is still coming");
        assertFalse(FrameReader.wholeFramesOneHeaderBlock(ByteBuffer.wrap(concat(ping, Arrays.copyOf(ping, 5)))),
                "a frame header still coming");
        ByteBuffer view = ByteBuffer.wrap(concat(ping, headers));
        view.position(ping.length);
        assertTrue(FrameReader.wholeFramesOneHeaderBlock(view), "from the buffer's position");
        assertEquals(ping.length, view.position(), "the bytes are not consumed");
    }

    private static byte[] none() {
        return new byte[0];
    }
}
