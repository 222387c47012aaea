package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log destination that fails (a full file system: /dev/full answers every write with ENOSPC;
 * a removed file reopened on graceful restart): the writer reports it once, keeps running, and
 * writes again once the path works.
 */
class LogWriteFailureTest {
    @TempDir
    Path dir;

    @Test
    void aFullDiskIsReportedOnceAndTheWriterKeepsGoing() throws Exception {
        List<String> reports = new CopyOnWriteArrayList<>();
        Path log = dir.resolve("access.log");
        Files.createSymbolicLink(log, Path.of("/dev/full"));
        try (AsyncLogWriter w = new AsyncLogWriter(log.toString(), 1 << 16, reports::add)) {
            for (int batch = 0; batch < 5; batch++) {
                assertTrue(w.offer("line " + batch));
                assertTrue(w.flush(5000));
            }
            assertTrue(w.writeFailing());
            assertEquals(1, reports.stream().filter(m -> m.startsWith("LM2101")).count(), reports.toString());

            // Space again: here the path now names a real file, picked up by the reopen of a restart.
            Files.delete(log);
            w.reopen();
            assertTrue(w.offer("after"));
            assertTrue(w.flush(5000));
            assertFalse(w.writeFailing());
            assertEquals(List.of("after"), Files.readAllLines(log));
            assertEquals(1, reports.stream().filter(m -> m.startsWith("LM2102")).count(), reports.toString());
            assertTrue(reports.stream().filter(m -> m.startsWith("LM2102")).findFirst().orElseThrow()
                    .contains("in 5 write(s) were lost"), reports.toString());
        }
    }

    @Test
    void aRemovedFileIsRecreatedByReopen() throws Exception {
        Path log = dir.resolve("error.log");
        try (AsyncLogWriter w = new AsyncLogWriter(log.toString(), 1 << 16, m -> { })) {
            w.offer("before");
            w.flush(5000);
            Files.delete(log);
            w.offer("lost with the removed file");
            w.flush(5000);
            w.reopen();
            w.offer("after");
            w.flush(5000);
            assertEquals(List.of("after"), Files.readAllLines(log));
        }
    }

    @Test
    void aPathThatCannotBeReopenedKeepsTheOldFile() throws Exception {
        List<String> reports = new CopyOnWriteArrayList<>();
        Path sub = Files.createDirectory(dir.resolve("logs"));
        Path log = sub.resolve("x.log");
        try (AsyncLogWriter w = new AsyncLogWriter(log.toString(), 1 << 16, reports::add)) {
            Path moved = dir.resolve("moved");
            Files.move(sub, moved);
            w.reopen();
            w.offer("still here");
            w.flush(5000);
            assertEquals(List.of("still here"), Files.readAllLines(moved.resolve("x.log")));
            assertTrue(reports.stream().anyMatch(m -> m.startsWith("LM2103")), reports.toString());
        }
    }

    @Test
    void episodesAreCountedOnce() {
        WriteFailures f = new WriteFailures("t");
        assertTrue(f.failed(new IOException("No space left on device"), 10) != null);
        assertEquals(null, f.failed(new IOException("again"), 10));
        assertTrue(f.succeeded().contains("20 bytes in 2 write(s)"));
        assertEquals(null, f.succeeded());
        assertEquals(1, f.episodes());
    }
}
