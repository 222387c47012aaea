package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The address every bench app binds: loopback unless {@code -Dbench.host} names another. */
class BenchServerTest {
    @Test
    void bindsLoopbackByDefault() {
        assertEquals("127.0.0.1", BenchServer.bindAddress(null));
        assertEquals("127.0.0.1", BenchServer.bindAddress(" "));
    }

    @Test
    void benchHostNamesAnotherAddress() {
        assertEquals("0.0.0.0", BenchServer.bindAddress("0.0.0.0"));
        assertEquals("::1", BenchServer.bindAddress(" ::1 "));
    }

    @Test
    void theSystemPropertyIsRead() {
        String before = System.getProperty("bench.host");
        try {
            System.clearProperty("bench.host");
            assertEquals("127.0.0.1", BenchServer.bindAddress());
            System.setProperty("bench.host", "0.0.0.0");
            assertEquals("0.0.0.0", BenchServer.bindAddress());
        } finally {
            if (before == null) {
                System.clearProperty("bench.host");
            } else {
                System.setProperty("bench.host", before);
            }
        }
    }
}
