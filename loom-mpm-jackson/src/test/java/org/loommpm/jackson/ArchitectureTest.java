package org.loommpm.jackson;

import org.junit.jupiter.api.Test;
import org.loommpm.testsupport.ArchitectureCheck;

/** loom-mpm-jackson's package graph: acyclic, and as docs/architecture.md lists it. */
class ArchitectureTest {
    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("loom-mpm-jackson packages");
    }
}
