package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BasicCredentialsTest {
    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsAsModAuthBasicDoes() {
        BasicCredentials c = BasicCredentials.parse("Basic " + b64("alice:s3cret:with colon"));
        assertEquals("alice", c.user());
        assertArrayEquals("s3cret:with colon".getBytes(StandardCharsets.US_ASCII), c.password());
        assertEquals("alice", BasicCredentials.parse("bAsIc \t " + b64("alice:x")).user());
        assertEquals("alice", BasicCredentials.parse("Basic " + b64("alice:x").replace("=", "")).user());
        assertArrayEquals(new byte[0], BasicCredentials.parse("Basic " + b64("alice")).password());
        assertEquals("alice", BasicCredentials.parse("Basic " + b64("alice:pw") + " trailing junk").user());
        assertArrayEquals("pw".getBytes(StandardCharsets.US_ASCII), BasicCredentials.parse("Basic " + b64("alice:pw\0rest")).password());
        assertEquals("", BasicCredentials.parse("Basic").user());
        assertEquals("", BasicCredentials.parse("Basic !!!").user());
    }

    @Test
    void otherSchemesAndNoFieldAreNoCredentials() {
        assertNull(BasicCredentials.parse(null));
        assertNull(BasicCredentials.parse("Bearer abc"));
        assertNull(BasicCredentials.parse("Basically " + b64("a:b")));
        assertNull(BasicCredentials.parse("Digest username=\"a\""));
    }

    @Test
    void namesAreBytesAndThePasswordStaysOutOfToString() {
        BasicCredentials c = BasicCredentials.parse("Basic " + Base64.getEncoder().encodeToString("jos\u00e9:p\u00e4ss".getBytes(StandardCharsets.UTF_8)));
        assertEquals(new String("jos\u00e9".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1), c.user());
        assertEquals("BasicCredentials[user=" + c.user() + "]", c.toString());
    }
}
