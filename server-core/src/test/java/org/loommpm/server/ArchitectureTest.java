package org.loommpm.server;

import org.junit.jupiter.api.Test;
import org.loommpm.testsupport.ArchitectureCheck;

/** server-core's package graph: acyclic, and as docs/architecture.md lists it. */
class ArchitectureTest {
    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("server-core packages");
    }
}
