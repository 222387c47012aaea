package org.loommpm.websocket.deflate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** RFC 7692 §7.1 negotiation and §7.2 compression. */
class DeflateNegotiationTest {
    private static String answer(String offer, boolean takeover) {
        DeflateParams p = DeflateNegotiation.accept(List.of(offer), takeover);
        return p == null ? null : p.responseHeader();
    }

    @Test
    void plainOffer() {
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                answer("permessage-deflate", false));
        assertEquals("permessage-deflate; client_no_context_takeover", answer("permessage-deflate", true));
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                answer("permessage-deflate; server_no_context_takeover", true));
    }

    @Test
    void invalidOffersAreDeclinedAndTheNextOneTaken() {
        assertNull(answer("permessage-deflate; unknown=1", false));
        assertNull(answer("permessage-deflate; server_no_context_takeover; server_no_context_takeover", false));
        assertNull(answer("permessage-deflate; server_max_window_bits=16", false));
        assertNull(answer("permessage-deflate; server_max_window_bits=07", false));
        assertNull(answer("permessage-deflate; client_no_context_takeover=1", false));
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                answer("permessage-deflate; server_max_window_bits=99, permessage-deflate; client_max_window_bits", false));
        assertNull(answer("x-webkit-deflate-frame", false));
    }

    @Test
    void narrowServerWindowIsHonouredWithoutContextTakeover() {
        DeflateParams p = DeflateNegotiation.accept(List.of("permessage-deflate; server_max_window_bits=\"10\""), true);
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10",
                p.responseHeader());
        MessageDeflater d = new MessageDeflater(p, ZlibPoolAccess.fresh());
        assertEquals(true, d.compresses(1024));
        assertEquals(false, d.compresses(1025), "longer than the window: sent uncompressed");
        assertEquals(false, d.compresses(MessageDeflater.MIN_SIZE - 1));
    }

    @Test
    void compressedMessagesInflateWithTheTailAddedBack() throws Exception {
        DeflateParams p = new DeflateParams(true, true, 15, 0, false);
        ZlibPool pool = ZlibPoolAccess.fresh();
        MessageDeflater d = new MessageDeflater(p, pool);
        for (int round = 0; round < 3; round++) {
            byte[] msg = ("hello hello hello " + round).repeat(20).getBytes(StandardCharsets.UTF_8);
            byte[] z = d.compress(msg, 0, msg.length);
            Inflater inf = new Inflater(true);
            inf.setInput(concat(z, new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF}));
            byte[] out = new byte[msg.length + 10];
            int n = inf.inflate(out);
            inf.end();
            assertEquals(new String(msg, StandardCharsets.UTF_8), new String(out, 0, n, StandardCharsets.UTF_8));
        }
        assertEquals(1, pool.idleDeflaters(), "no context takeover: the compressor went back to the pool");
    }

    @Test
    void aMessageCompressedAfterTheEndKeepsNoCompressor() {
        ZlibPool pool = ZlibPoolAccess.fresh();
        MessageDeflater d = new MessageDeflater(new DeflateParams(false, false, 15, 0, false), pool);
        byte[] msg = "context takeover ".repeat(10).getBytes(StandardCharsets.UTF_8);
        d.compress(msg, 0, msg.length);
        d.end();
        int idle = pool.idleDeflaters();
        d.compress(msg, 0, msg.length); // a send that raced the close
        assertEquals(idle + 1, pool.idleDeflaters(), "the compressor it borrowed went back to the pool");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
