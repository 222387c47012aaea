package org.loommpm.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class LoginFailuresTest {
    @Test
    void countsPerAddressAndBoundsTheTable() throws Exception {
        LoginFailures f = new LoginFailures();
        InetAddress a = InetAddress.getByName("192.0.2.1");
        for (int i = 1; i <= 12; i++) {
            assertEquals(i, f.failed(a, "alice", "/x", "wrong user or password"));
        }
        assertEquals(0, f.failures(InetAddress.getByName("192.0.2.2")));
        for (int i = 0; i < LoginFailures.LIMIT + 10; i++) {
            f.failed(InetAddress.getByAddress(new byte[] {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i}), null, "/x", "no user");
        }
        assertTrue(f.failures(a) == 0, "the full table was cleared");
        assertEquals(12 + LoginFailures.LIMIT + 10, f.total());
    }
}
