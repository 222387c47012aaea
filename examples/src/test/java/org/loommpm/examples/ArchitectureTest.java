package org.loommpm.examples;

import org.junit.jupiter.api.Test;
import org.loommpm.testsupport.ArchitectureCheck;

/** The examples' package graph: acyclic, and as docs/architecture.md lists it. */
class ArchitectureTest {
    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("examples packages");
    }
}
