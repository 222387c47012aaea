package org.loommpm.websocket.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.websocket.frame.ClientFrames.close;
import static org.loommpm.websocket.frame.ClientFrames.concat;
import static org.loommpm.websocket.frame.ClientFrames.deflate;
import static org.loommpm.websocket.frame.ClientFrames.frame;
import static org.loommpm.websocket.frame.ClientFrames.text;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.spi.InputBudget;
import org.loommpm.websocket.deflate.DeflateParams;
import org.loommpm.websocket.deflate.MessageInflater;
import org.loommpm.websocket.deflate.ZlibPoolAccess;

/** RFC 6455 §5 framing cases (after Autobahn's sections 1-7) and RFC 7692 inflation, without a socket. */
class MessageReaderTest {
    /** A budget no message of these tests reaches: they test the reader's own limits. */
    static InputBudget.Hold unbounded() {
        return new InputBudget.Hold(new InputBudget(Long.MAX_VALUE), InputBudget.Consumer.WEBSOCKET_MESSAGE);
    }

    private final List<String> events = new ArrayList<>();
    private final MessageReader.Listener listener = new MessageReader.Listener() {
        @Override
        public void onMessage(boolean text, byte[] data, int length) {
            events.add((text ? "text:" + new String(data, 0, length, StandardCharsets.UTF_8) : "binary:" + length));
        }

        @Override
        public void onPing(byte[] payload) {
            events.add("ping:" + new String(payload, StandardCharsets.UTF_8));
        }

        @Override
        public void onPong(byte[] payload) {
            events.add("pong:" + payload.length);
        }

        @Override
        public void onClose(int code, String reason) {
            events.add("close:" + code + ":" + reason);
        }
    };

    private static MessageReader reader() {
        return new MessageReader(1 << 16, 1 << 17, null, unbounded());
    }

    private void feed(MessageReader r, byte[] bytes) throws WebSocketProtocolException {
        ByteBuffer in = ByteBuffer.wrap(bytes.clone());
        r.read(in, listener);
    }

    private int failure(MessageReader r, byte[] bytes) {
        return assertThrows(WebSocketProtocolException.class, () -> feed(r, bytes)).closeCode();
    }

    @Test
    void textMessageInOneFrame() throws Exception {
        MessageReader r = reader();
        feed(r, text("héllo"));
        assertEquals(List.of("text:héllo"), events);
        assertEquals(false, r.midMessage());
    }

    @Test
    void everyByteSplitStillReadsTheSameFrames() throws Exception {
        MessageReader r = reader();
        byte[] all = concat(text("a"), frame(0x01, "b".getBytes()), frame(0x89, "p".getBytes()),
                frame(0x80, "c".getBytes()), frame(0x82, new byte[300]), close(1000, "bye"));
        for (byte b : all) {
            feed(r, new byte[] {b});
        }
        assertEquals(List.of("text:a", "ping:p", "text:bc", "binary:300", "close:1000:bye"), events);
    }

    @Test
    void emptyFramesCompleteWithoutMoreInput() throws Exception {
        MessageReader r = reader();
        feed(r, frame(0x81, new byte[0]));
        feed(r, frame(0x89, new byte[0]));
        assertEquals(List.of("text:", "ping:"), events);
    }

    @Test
    void controlFramesBetweenFragments() throws Exception {
        MessageReader r = reader();
        feed(r, concat(frame(0x01, "frag1 ".getBytes()), frame(0x89, "x".getBytes()), frame(0x8A, new byte[3]),
                frame(0x00, "frag2 ".getBytes()), frame(0x80, "end".getBytes())));
        assertEquals(List.of("ping:x", "pong:3", "text:frag1 frag2 end"), events);
    }

    @Test
    void unmaskedFrameIsAProtocolError() {
        assertEquals(1002, failure(reader(), frame(0x81, "x".getBytes(), false)));
    }

    @Test
    void reservedBitsAndOpcodesAreProtocolErrors() {
        assertEquals(1002, failure(reader(), frame(0x81 | 0x20, "x".getBytes())));
        assertEquals(1002, failure(reader(), frame(0x81 | 0x10, "x".getBytes())));
        assertEquals(1002, failure(reader(), frame(0x81 | 0x40, "x".getBytes()))); // RSV1 without deflate
        for (int op : new int[] {3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF}) {
            assertEquals(1002, failure(reader(), frame(0x80 | op, new byte[0])), "opcode " + op);
        }
    }

    @Test
    void controlFrameRules() {
        assertEquals(1002, failure(reader(), frame(0x09, new byte[1])), "fragmented ping");
        assertEquals(1002, failure(reader(), frame(0x89, new byte[126])), "ping over 125 bytes");
        assertEquals(1002, failure(reader(), frame(0x88, new byte[1])), "close with one byte");
    }

    @Test
    void fragmentationRules() {
        assertEquals(1002, failure(reader(), frame(0x80, "x".getBytes())), "continuation without a message");
        assertEquals(1002, failure(reader(), concat(frame(0x01, "a".getBytes()), frame(0x81, "b".getBytes()))),
                "a new message inside one");
    }

    @Test
    void invalidUtf8FailsAtTheFirstFragment() {
        MessageReader r = reader();
        // 0xC0 0xAF is an overlong '/': refused before the rest of the message is sent.
        assertEquals(1007, failure(r, frame(0x01, new byte[] {'o', 'k', (byte) 0xC0, (byte) 0xAF})));
        assertEquals(MessageReader.State.CLOSED, r.state());
    }

    @Test
    void utf8SplitAcrossFragmentsIsAccepted() throws Exception {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        MessageReader r = reader();
        feed(r, concat(frame(0x01, new byte[] {euro[0]}), frame(0x00, new byte[] {euro[1]}), frame(0x80, new byte[] {euro[2]})));
        assertEquals(List.of("text:€"), events);
    }

    @Test
    void textEndingInsideASequenceIsInvalid() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        assertEquals(1007, failure(reader(), frame(0x81, Arrays.copyOf(euro, 2))));
    }

    @Test
    void limits() {
        MessageReader r = new MessageReader(200, 300, null, unbounded());
        assertEquals(1009, failure(r, frame(0x82, new byte[201])));
        MessageReader r2 = new MessageReader(200, 300, null, unbounded());
        assertEquals(1009, failure(r2, concat(frame(0x02, new byte[200]), frame(0x80, new byte[101]))));
    }

    @Test
    void oversizedHeaderIsRefusedBeforeAnyPayload() {
        // Only the header of a 2^40-byte frame: refused on its length alone.
        byte[] head = {(byte) 0x82, (byte) 0xFF, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4};
        assertEquals(1009, failure(reader(), head));
        byte[] negative = {(byte) 0x82, (byte) 0xFF, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
        assertEquals(1002, failure(reader(), negative));
    }

    @Test
    void closeCodes() throws Exception {
        MessageReader r = reader();
        feed(r, frame(0x88, new byte[0]));
        assertEquals(List.of("close:1005:"), events);
        for (int bad : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000}) {
            assertEquals(1002, failure(reader(), close(bad, "")), "code " + bad);
        }
        for (int good : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4999}) {
            MessageReader ok = reader();
            feed(ok, close(good, "r"));
            assertEquals(MessageReader.State.CLOSED, ok.state());
        }
        byte[] badReason = frame(0x88, new byte[] {0x03, (byte) 0xE8, (byte) 0xFF});
        assertEquals(1007, failure(reader(), badReason));
    }

    @Test
    void nothingIsReadAfterTheClose() throws Exception {
        MessageReader r = reader();
        feed(r, concat(close(1000, ""), text("late")));
        assertEquals(List.of("close:1000:"), events);
    }

    private static MessageReader deflating(int maxMessage) {
        DeflateParams p = new DeflateParams(true, true, 15, 0, false);
        return new MessageReader(1 << 16, maxMessage, new MessageInflater(p, ZlibPoolAccess.fresh()), unbounded());
    }

    @Test
    void compressedMessagesInflate() throws Exception {
        MessageReader r = deflating(1 << 16);
        String s = "compress me ".repeat(100);
        byte[] z = deflate(s.getBytes(StandardCharsets.UTF_8));
        // One frame, then the same split over three fragments (RSV1 on the first only).
        int third = z.length / 3;
        feed(r, concat(frame(0xC1, z), frame(0x41, Arrays.copyOfRange(z, 0, third)),
                frame(0x00, Arrays.copyOfRange(z, third, 2 * third)), frame(0x80, Arrays.copyOfRange(z, 2 * third, z.length)),
                text("plain")));
        assertEquals(List.of("text:" + s, "text:" + s, "text:plain"), events);
    }

    @Test
    void compressionBombClosesWith1009() {
        byte[] z = deflate(new byte[10_000_000]); // ~10 KB on the wire
        assertEquals(1009, failure(deflating(1 << 16), frame(0xC2, z)));
    }

    @Test
    void aMessageOverTheInflateRatioIs1008AndCounted() throws Exception {
        DeflateParams p = new DeflateParams(true, true, 15, 0, false);
        MessageInflater inflater = new MessageInflater(p, ZlibPoolAccess.fresh(), 100, 4096);
        MessageReader r = new MessageReader(1 << 16, 1 << 17, inflater, unbounded());
        byte[] small = deflate(new byte[4000]); // far over 100:1, but under the size checked
        feed(r, frame(0xC2, small));
        assertEquals(4000, inflater.inflatedTotal());
        assertFalse(inflater.ratioExceeded());
        byte[] bomb = deflate(new byte[100_000]); // ~100 bytes: 1000:1, under the 128 KiB message limit
        assertEquals(1008, failure(r, frame(0xC2, bomb)));
        assertTrue(inflater.ratioExceeded());
    }

    @Test
    void corruptCompressedDataIs1007() {
        assertEquals(1007, failure(deflating(1 << 16), frame(0xC2, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF})));
    }

    @Test
    void inflatedTextIsValidatedToo() {
        byte[] z = deflate(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80}); // a UTF-16 surrogate
        assertEquals(1007, failure(deflating(1 << 16), frame(0xC1, z)));
    }

    @Test
    void rsv1OnContinuationIsAProtocolError() {
        byte[] z = deflate("abc".getBytes());
        assertEquals(1002, failure(deflating(1 << 16), concat(frame(0x41, z), frame(0xC0, new byte[0]))));
    }

    @Test
    void serverFramesAreUnmaskedAndSized() {
        assertArrayEquals(new byte[] {(byte) 0x81, 2, 'h', 'i'}, FrameWriter.frame(Opcode.TEXT, false, "hi".getBytes(), 0, 2));
        byte[] mid = FrameWriter.frame(Opcode.BINARY, false, new byte[300], 0, 300);
        assertEquals(126, mid[1]);
        assertEquals(304, mid.length);
        byte[] big = FrameWriter.frame(Opcode.BINARY, true, new byte[70_000], 0, 70_000);
        assertEquals((byte) 0xC2, big[0]);
        assertEquals(127, big[1]);
        assertEquals(70_010, big.length);
        assertEquals(125, FrameWriter.close(1001, "x".repeat(200))[1], "reason cut to the control frame limit");
        byte[] close = FrameWriter.close(1001, "é".repeat(100));
        assertEquals(124, close[1] & 0x7F, "two-byte characters: 61 of them fit in 123 bytes");
        assertEquals(true, Utf8Validator.isValid(close, 4, close.length - 4), "cut at a character boundary");
    }

    /** The input budget: a message's room is charged as it grows, refused with 1009, and released on each end. */
    @Test
    void theMessageIsChargedToTheBudgetAndReleasedOnEveryEnd() throws Exception {
        InputBudget budget = new InputBudget(10_000);
        List<String> got = new ArrayList<>();
        MessageReader.Listener l = new MessageReader.Listener() {
            @Override
            public void onMessage(boolean text, byte[] data, int length) {
                got.add("message " + length + " held " + budget.used());
            }

            @Override
            public void onPing(byte[] payload) {
            }

            @Override
            public void onPong(byte[] payload) {
            }

            @Override
            public void onClose(int code, String reason) {
                got.add("close");
            }
        };
        MessageReader r = new MessageReader(1 << 16, 1 << 17, null,
                new InputBudget.Hold(budget, InputBudget.Consumer.WEBSOCKET_MESSAGE));
        r.read(ByteBuffer.wrap(concat(frame(0x02, new byte[3000]), frame(0x80, new byte[10]))), l);
        assertEquals(1, got.size());
        assertTrue(got.getFirst().startsWith("message 3010 held ") && !got.getFirst().endsWith(" held 0"),
                "charged while the listener has it: " + got);
        assertEquals(0, budget.used(), "released once delivered");

        r.read(ByteBuffer.wrap(frame(0x02, new byte[4000])), l); // unfinished
        assertTrue(budget.used() >= 4000);
        r.read(ByteBuffer.wrap(close(1000, "")), l); // the client's close frame ends it
        assertEquals(0, budget.used(), "released by the close frame");

        MessageReader big = new MessageReader(1 << 16, 1 << 17, null,
                new InputBudget.Hold(budget, InputBudget.Consumer.WEBSOCKET_MESSAGE));
        WebSocketProtocolException e = assertThrows(WebSocketProtocolException.class,
                () -> big.read(ByteBuffer.wrap(frame(0x02, new byte[20_000])), l));
        assertEquals(1009, e.closeCode());
        assertTrue(big.refusedByBudget());
        assertEquals(0, budget.used(), "a refusal holds nothing");
        assertEquals(1, budget.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE));

        MessageReader cut = new MessageReader(1 << 16, 1 << 17, null,
                new InputBudget.Hold(budget, InputBudget.Consumer.WEBSOCKET_MESSAGE));
        cut.read(ByteBuffer.wrap(frame(0x02, new byte[2000])), l);
        assertTrue(budget.used() > 0);
        cut.releaseMessage(); // the connection ended mid-message
        cut.releaseMessage();
        assertEquals(0, budget.used(), "released once by the connection's end");
    }
}
