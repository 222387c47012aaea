package org.loommpm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeadersTest {
    @Test
    void keepsOrderAndSpellingAndGrowsPastItsFirstArray() {
        Headers h = new Headers();
        for (int i = 0; i < 40; i++) {
            h.add("X-Field-" + i, "v" + i);
        }
        h.add("x-field-3", "again");
        assertEquals(41, h.size());
        assertEquals("X-Field-39", h.name(39));
        assertEquals("v39", h.value(39));
        assertEquals("v3", h.first("X-FIELD-3"));
        assertEquals(List.of("v3", "again"), h.all("X-Field-3"));
        assertEquals(2, h.count("x-field-3"));
        List<String> seen = new ArrayList<>();
        h.forEach((n, v) -> seen.add(n + "=" + v));
        assertEquals("X-Field-0=v0", seen.get(0));
        assertEquals("x-field-3=again", seen.get(40));
    }

    @Test
    void aSizedSetGrowsPastItsSizeAndZeroMeansRoomForOne() {
        for (int size : new int[] {0, 1, 3}) {
            Headers h = new Headers(size);
            for (int i = 0; i < 10; i++) {
                h.add("F" + i, "v" + i);
            }
            assertEquals(10, h.size());
            assertEquals("v0", h.first("f0"));
            assertEquals("v9", h.value(9));
        }
    }

    @Test
    void removeAndSetKeepTheOthersInOrder() {
        Headers h = new Headers().add("A", "1").add("B", "2").add("a", "3").add("C", "4");
        assertTrue(h.remove("A"));
        assertFalse(h.remove("A"));
        assertEquals(2, h.size());
        assertEquals("B", h.name(0));
        assertEquals("C", h.name(1));
        assertNull(h.first("a"));
        h.set("b", "5");
        assertEquals(2, h.size());
        assertEquals("C", h.name(0));
        assertEquals("b", h.name(1));
        assertEquals("5", h.first("B"));
        assertEquals(5, h.additions()); // four adds and one set
        h.clear();
        assertEquals(0, h.size());
        assertNull(h.first("C"));
    }

    @Test
    void tokensInLists() {
        Headers h = new Headers().add("Connection", "keep-alive, Upgrade").add("Connection", " close ");
        assertTrue(h.hasToken("connection", "upgrade"));
        assertTrue(h.hasToken("Connection", "CLOSE"));
        assertFalse(h.hasToken("Connection", "keep"));
    }
}
