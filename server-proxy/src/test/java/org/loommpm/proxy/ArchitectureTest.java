package org.loommpm.proxy;

import org.junit.jupiter.api.Test;
import org.loommpm.testsupport.ArchitectureCheck;

/** server-proxy's package graph: acyclic, and as docs/architecture.md lists it. */
class ArchitectureTest {
    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("server-proxy packages");
    }
}
