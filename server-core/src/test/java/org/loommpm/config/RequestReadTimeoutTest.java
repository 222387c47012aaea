package org.loommpm.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** mod_reqtimeout's stage arithmetic and syntax. */
class RequestReadTimeoutTest {
    private static final long S = 1_000_000_000L;

    @Test
    void defaultIsHttpds() {
        RequestReadTimeout d = ServerConfig.builder().build().requestReadTimeout();
        assertEquals("handshake=0 header=20-40,MinRate=500 body=20,MinRate=500", d.toString());
    }

    @Test
    void rateExtendsTheFirstTimeoutUpToTheMaximum() {
        RequestReadTimeout.Stage h = RequestReadTimeout.Stage.parse("20-40,MinRate=500");
        assertEquals(100 + 20 * S, h.deadline(100, 0));
        assertEquals(100 + 21 * S, h.deadline(100, 500), "one second per MinRate bytes");
        assertEquals(100 + 20 * S + S / 500, h.deadline(100, 1), "each byte counts");
        assertEquals(100 + 40 * S, h.deadline(100, 1_000_000), "never past the maximum");
    }

    @Test
    void withoutAMaximumOnlyTheRateBounds() {
        RequestReadTimeout.Stage b = RequestReadTimeout.Stage.parse("20,minrate=500");
        assertEquals(1020 * S, b.deadline(0, 500_000));
        assertTrue(b.deadline(0, Long.MAX_VALUE) > 0, "no overflow");
        assertEquals(5 * S, RequestReadTimeout.Stage.parse("5").deadline(0, 1 << 20), "no rate: fixed");
    }

    @Test
    void zeroTurnsAStageOff() {
        assertFalse(RequestReadTimeout.Stage.parse("0").enabled());
        assertEquals(RequestReadTimeout.Stage.OFF, RequestReadTimeout.Stage.parse("0"));
    }

    @Test
    void httpdsSyntaxRules() {
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("10-20"));
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("20-10,MinRate=1"));
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("10,MinRate=0"));
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("ten"));
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("0,MinRate=5"));
        assertThrows(IllegalArgumentException.class, () -> RequestReadTimeout.Stage.parse("-1"));
    }

    @Test
    void firstByteWaitIsBoundedByTheHeaderStage() {
        ServerConfig c = ServerConfig.builder().build();
        assertEquals(Duration.ofSeconds(10), c.firstByteWait());
        assertEquals(Duration.ofSeconds(20), c.tlsHandshakeTimeout(), "handshake=0: the header stage bounds it");
        ServerConfig shortHeader = ServerConfig.builder().requestHeaderTimeout(Duration.ofSeconds(3)).build();
        assertEquals(Duration.ofSeconds(3), shortHeader.firstByteWait());
        ServerConfig off = ServerConfig.builder().firstByteTimeout(Duration.ZERO)
                .requestReadTimeout(RequestReadTimeout.DEFAULT.withHeader(RequestReadTimeout.Stage.OFF)
                        .withHandshake(Duration.ofSeconds(4)))
                .build();
        assertEquals(off.timeout(), off.firstByteWait(), "both off: Timeout");
        assertEquals(Duration.ofSeconds(4), off.tlsHandshakeTimeout());
    }
}
