package org.loommpm.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The guard's pieces on their own; {@code TlsTest} refuses a real TLS 1.2 client's renegotiation. */
class RenegotiationGuardTest {

    @Test
    void onlyVersionsBeforeTls13Renegotiate() {
        assertTrue(RenegotiationGuard.renegotiable("TLSv1.2"));
        assertTrue(RenegotiationGuard.renegotiable("TLSv1.1"));
        assertTrue(RenegotiationGuard.renegotiable("TLSv1"));
        assertFalse(RenegotiationGuard.renegotiable("TLSv1.3"));
    }

    @Test
    void aHandshakeRecordIsToldFromApplicationDataAndAlerts() {
        // Two records in read mode: application data (23) first, then a handshake (22).
        ByteBuffer records = ByteBuffer.wrap(new byte[] {23, 3, 3, 0, 1, 0x55, 22, 3, 3, 0, 4, 1, 0, 0, 0});
        assertFalse(RenegotiationGuard.handshakeRecord(records));
        records.position(6);
        assertTrue(RenegotiationGuard.handshakeRecord(records));
        assertFalse(RenegotiationGuard.handshakeRecord(ByteBuffer.wrap(new byte[] {21, 3, 3, 0, 2, 1, 0})));
        assertFalse(RenegotiationGuard.handshakeRecord(ByteBuffer.allocate(0)));
    }

    @Test
    void theJdkSwitchIsSetUnlessTheJvmHasAValue() {
        String before = System.getProperty(RenegotiationGuard.JDK_PROPERTY);
        try {
            System.clearProperty(RenegotiationGuard.JDK_PROPERTY);
            RenegotiationGuard.rejectInJdk();
            assertEquals("true", System.getProperty(RenegotiationGuard.JDK_PROPERTY));
            System.setProperty(RenegotiationGuard.JDK_PROPERTY, "false");
            RenegotiationGuard.rejectInJdk();
            assertEquals("false", System.getProperty(RenegotiationGuard.JDK_PROPERTY), "an operator's value is kept");
        } finally {
            if (before == null) {
                System.clearProperty(RenegotiationGuard.JDK_PROPERTY);
            } else {
                System.setProperty(RenegotiationGuard.JDK_PROPERTY, before);
            }
        }
    }
}
