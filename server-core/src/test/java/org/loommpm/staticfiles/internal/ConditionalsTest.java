package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConditionalsTest {
    @Test
    void entityTagLists() {
        assertTrue(Conditionals.matches("\"a\"", "\"a\"", false));
        assertTrue(Conditionals.matches("\"x\", \"a\"", "\"a\"", false));
        assertTrue(Conditionals.matches("*", "\"a\"", false));
        assertFalse(Conditionals.matches("W/\"a\"", "\"a\"", false), "strong comparison ignores weak tags");
        assertTrue(Conditionals.matches("W/\"a\"", "\"a\"", true), "weak comparison");
        assertFalse(Conditionals.matches("\"ab\"", "\"a\"", true));
        assertFalse(Conditionals.matches("a", "\"a\"", true), "unquoted is malformed");
    }
}
