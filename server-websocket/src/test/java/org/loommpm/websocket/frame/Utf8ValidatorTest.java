package org.loommpm.websocket.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8ValidatorTest {
    private static boolean jdk(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void agreesWithTheJdkDecoderOnRandomBytes() {
        Random rnd = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            byte[] b = new byte[1 + rnd.nextInt(6)];
            for (int k = 0; k < b.length; k++) {
                // Bias towards the interesting high range.
                b[k] = (byte) (rnd.nextBoolean() ? 0x80 + rnd.nextInt(0x80) : rnd.nextInt(256));
            }
            assertEquals(jdk(b), Utf8Validator.isValid(b, 0, b.length), () -> java.util.HexFormat.of().formatHex(b));
        }
    }

    @Test
    void knownCases() {
        byte[] mixed = "κόσμε 𝄞 €".getBytes(StandardCharsets.UTF_8);
        assertTrue(Utf8Validator.isValid(mixed, 0, mixed.length));
        assertFalse(Utf8Validator.isValid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4), "above U+10FFFF");
        assertFalse(Utf8Validator.isValid(new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, 0, 3), "overlong");
        assertFalse(Utf8Validator.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0, 3), "surrogate");
    }

    @Test
    void failsFastOnTheFirstBadByte() {
        Utf8Validator v = new Utf8Validator();
        assertTrue(v.feed(new byte[] {(byte) 0xCE}, 0, 1));
        assertFalse(v.complete());
        assertTrue(v.feed(new byte[] {(byte) 0xBA}, 0, 1));
        assertTrue(v.complete());
        assertFalse(v.feed(new byte[] {(byte) 0xF5}, 0, 1));
    }
}
