package org.loommpm.http2;

import org.junit.jupiter.api.Test;
import org.loommpm.testsupport.ArchitectureCheck;

/** server-h2's package graph: acyclic, and as docs/architecture.md lists it. */
class ArchitectureTest {
    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("server-h2 packages");
    }
}
