package org.loommpm.http2.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Fuzzes {@link FrameReader}, the HTTP/2 frame layer: the input follows the client connection
 * preface. Without {@code JAZZER_FUZZ} it replays {@code FrameReaderFuzzTestInputs/frames}
 * (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is an {@link Http2Error}, and a stream error reaches the
 * listener only for a stream other than 0; every slice handed to the listener lies inside its
 * frame (offsets and lengths non-negative, DATA's flow-control length at least its data); the
 * same bytes delivered in small reads (the buffer compacted between them, as the connection does)
 * give exactly the same frames and the same error as delivered at once; what is left unconsumed
 * is less than one whole frame, and {@link FrameReader#partialFrameSize()} says how much that
 * frame needs.
 */
class FrameReaderFuzzTest {
    private static final int MAX_FRAME = 1024;

    @FuzzTest(maxDuration = "10m")
    void frames(byte[] input) {
        byte[] preface = FrameReader.preface();
        byte[] wire = new byte[preface.length + input.length];
        System.arraycopy(preface, 0, wire, 0, preface.length);
        System.arraycopy(input, 0, wire, preface.length, input.length);
        List<String> whole = run(wire, wire.length);
        List<String> pieces = run(wire, input.length % 13 + 1);
        assertEquals(whole, pieces, "frames read in pieces differ from frames read at once");
    }

    /** Feeds {@code wire} {@code step} bytes at a time; the events, ending with the error or what was left. */
    private static List<String> run(byte[] wire, int step) {
        Recorder events = new Recorder();
        FrameReader reader = new FrameReader(events, MAX_FRAME);
        ByteBuffer in = ByteBuffer.allocate(MAX_FRAME + FrameType.HEADER_LENGTH);
        int at = 0;
        try {
            while (at < wire.length) {
                int n = Math.min(step, Math.min(wire.length - at, in.remaining()));
                in.put(wire, at, n);
                at += n;
                in.flip();
                events.array = in.array();
                reader.read(in);
                int left = in.remaining();
                if (left >= FrameType.HEADER_LENGTH && reader.prefaceDone()) {
                    int length = (in.get(in.position()) & 0xff) << 16 | (in.get(in.position() + 1) & 0xff) << 8
                            | (in.get(in.position() + 2) & 0xff);
                    assertTrue(left < FrameType.HEADER_LENGTH + length, "a whole frame was left unread");
                    assertEquals(FrameType.HEADER_LENGTH + length, reader.partialFrameSize());
                }
                in.compact();
            }
            events.add("left " + in.position() + " in block " + reader.inHeaderBlock());
        } catch (Http2Error e) {
            assertTrue(e.isConnectionError(), "a stream error escaped the reader");
            events.add("error " + e.code() + " " + e.getMessage());
        }
        return events.log;
    }

    /** Checks and records every callback; slices are copied, as the buffer is reused. */
    private static final class Recorder implements FrameListener {
        final List<String> log = new ArrayList<>();
        byte[] array;

        void add(String event) {
            log.add(event);
        }

        private String slice(byte[] a, int off, int len) {
            assertTrue(a == array, "a slice of another array");
            assertTrue(off >= 0 && len >= 0 && off + len <= a.length, "slice out of bounds: " + off + "+" + len);
            return HexFormat.of().formatHex(a, off, off + len);
        }

        private static void stream(int id) {
            assertTrue(id >= 0, "negative stream id " + id);
        }

        @Override
        public void data(int streamId, byte[] a, int off, int len, int flowLength, boolean endStream) {
            stream(streamId);
            assertTrue(streamId != 0 && flowLength >= len, "DATA flow length " + flowLength + " < " + len);
            add("data " + streamId + " " + slice(a, off, len) + " " + flowLength + " " + endStream);
        }

        @Override
        public void headers(int streamId, byte[] a, int off, int len, int dependency, boolean endStream,
                boolean endHeaders) {
            assertTrue(streamId > 0 && (streamId & 1) == 1, "HEADERS on stream " + streamId);
            add("headers " + streamId + " " + slice(a, off, len) + " " + dependency + " " + endStream + " " + endHeaders);
        }

        @Override
        public void continuation(int streamId, byte[] a, int off, int len, boolean endHeaders) {
            stream(streamId);
            add("continuation " + streamId + " " + slice(a, off, len) + " " + endHeaders);
        }

        @Override
        public void priority(int streamId, int dependency) {
            stream(streamId);
            assertTrue(dependency >= 0);
            add("priority " + streamId + " " + dependency);
        }

        @Override
        public void rstStream(int streamId, int code) {
            stream(streamId);
            add("rst " + streamId + " " + code);
        }

        @Override
        public void settings(byte[] a, int off, int len, boolean preface) {
            assertEquals(0, len % 6, "SETTINGS payload not a multiple of 6");
            add("settings " + slice(a, off, len) + " " + preface);
        }

        @Override
        public void settingsAck() {
            add("settings-ack");
        }

        @Override
        public void ping(byte[] a, int off, boolean ack) {
            add("ping " + slice(a, off, 8) + " " + ack);
        }

        @Override
        public void goAway(int lastStreamId, int code) {
            stream(lastStreamId);
            add("goaway " + lastStreamId + " " + code);
        }

        @Override
        public void windowUpdate(int streamId, int increment) {
            stream(streamId);
            assertTrue(increment >= 0);
            add("window " + streamId + " " + increment);
        }

        @Override
        public void streamError(Http2Error e) {
            assertTrue(!e.isConnectionError() && e.streamId() > 0, "streamError with " + e.streamId());
            add("stream-error " + e.streamId() + " " + e.code());
        }

        @Override
        public void frameCompleted() {
            add("|");
        }
    }
}
