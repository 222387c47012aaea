package org.loommpm.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code OpenConnectionsPerChild}: the configured bound, or the one derived from the heap and the fd limit. */
class AdmissionSettingsTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void aConfiguredBoundIsUsedAsIs() {
        ServerConfig c = ServerConfig.builder().admission(new AdmissionSettings(1234)).build();
        assertEquals(1234, c.admission().effectiveOpenConnectionsPerChild(c));
    }

    @Test
    void theDerivedBoundIsTheSmallerOfHeapAndDescriptors() {
        ServerConfig c = ServerConfig.builder().build(); // 1 child, 16 KiB buffers: 64 KiB a connection
        assertEquals(1024, AdmissionSettings.derived(c, 128 * MIB, 1_000_000), "half of 128 MiB / 64 KiB");
        assertEquals(16_384 - 128, AdmissionSettings.derived(c, 8192 * MIB, 16_384), "the fd limit less 128");
        assertEquals(32_768, AdmissionSettings.derived(c, 4096 * MIB, -1), "fd limit unknown: the heap alone");
    }

    @Test
    void theDerivedBoundIsSharedByTheChildrenAndNeverBelowThePool() {
        ServerConfig four = ServerConfig.builder().startServers(4).build();
        assertEquals(256, AdmissionSettings.derived(four, 128 * MIB, 1_000_000), "1024 / 4 children");
        ServerConfig small = ServerConfig.builder().threadsPerChild(64).build();
        assertEquals(64, AdmissionSettings.derived(small, 1 * MIB, 100), "never below ThreadsPerChild");
        assertTrue(ServerConfig.builder().build().admission().effectiveOpenConnectionsPerChild(
                ServerConfig.builder().build()) >= ServerConfig.DEFAULT_THREADS_PER_CHILD);
    }

    /** Dividing by the 64 children the dynamic policy may run would close a child at 256 idle connections. */
    @Test
    void theDynamicPolicyDividesByTheChildrenItStartsWith() {
        ServerConfig dynamic = ServerConfig.builder().childPolicy(ChildPolicy.DYNAMIC).build();
        assertEquals(AdmissionSettings.derived(dynamic, 128 * MIB, 1_000_000) * dynamic.startServers(), 1024);
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AdmissionSettings(-1));
    }
}
