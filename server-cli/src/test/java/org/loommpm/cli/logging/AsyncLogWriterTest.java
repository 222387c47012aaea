package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsyncLogWriterTest {
    @TempDir
    Path dir;

    @Test
    void writesInOrderAndFlushesOnClose() throws Exception {
        Path f = dir.resolve("a.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1000, m -> { });
        for (int i = 0; i < 500; i++) {
            assertTrue(w.offer("line " + i));
        }
        w.close();
        List<String> lines = Files.readAllLines(f);
        assertEquals(500, lines.size());
        assertEquals("line 499", lines.get(499));
    }

    @Test
    void dropsAndCountsWhenFullButNeverBlocks() throws Exception {
        Path f = dir.resolve("b.log");
        List<String> reports = new CopyOnWriteArrayList<>();
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 4, reports::add);
        long start = System.nanoTime();
        int accepted = 0;
        for (int i = 0; i < 100_000; i++) {
            accepted += w.offer("x".repeat(100)) ? 1 : 0;
        }
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "offer never blocks");
        w.flush(5000);
        assertEquals(100_000 - accepted, w.droppedTotal());
        w.close();
        assertEquals(accepted, Files.readAllLines(f).size());
        if (accepted < 100_000) {
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("LM1202")), reports.toString());
        }
    }

    @Test
    void reopenStartsAnewFileInOrder() throws Exception {
        Path f = dir.resolve("c.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 100, m -> { });
        w.offer("before");
        w.flush(5000);
        Files.move(f, dir.resolve("c.log.1"));
        w.reopen();
        w.offer("after");
        w.close();
        assertEquals(List.of("before"), Files.readAllLines(dir.resolve("c.log.1")));
        assertEquals(List.of("after"), Files.readAllLines(f));
    }
}
