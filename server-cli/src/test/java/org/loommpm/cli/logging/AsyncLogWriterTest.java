package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsyncLogWriterTest {
    @TempDir
    Path dir;

    @Test
    void writesInOrderAndFlushesOnClose() throws Exception {
        Path f = dir.resolve("a.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { });
        for (int i = 0; i < 500; i++) {
            assertTrue(w.offer("line " + i));
        }
        w.close();
        List<String> lines = Files.readAllLines(f);
        assertEquals(500, lines.size());
        assertEquals("line 499", lines.get(499));
    }

    @Test
    void linesOfOneKeyKeepTheirOrderAndGetANewlineEach() throws Exception {
        Path f = dir.resolve("bytes.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { });
        w.offer(7, (line, v) -> line.text("first ").escaped(v), "é");
        w.offer(7, LogLine::text, "second");
        w.offer(7, LogLine::number, 3L);
        w.offer(7, LogLine::text, "x".repeat(70_000)); // longer than a buffer's share: taken while it has room
        w.close();
        assertEquals(List.of("first \\xc3\\xa9", "second", "3", "x".repeat(70_000)), Files.readAllLines(f));
        assertEquals(0, w.droppedTotal());
    }

    /** A format that throws leaves nothing of its line behind, and the buffer is free again. */
    @Test
    void aFormatThatThrowsLeavesNoPartOfItsLine() throws Exception {
        Path f = dir.resolve("throws.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { });
        w.offer(7, LogLine::text, "before");
        assertThrows(IllegalStateException.class, () -> w.offer(7, (line, v) -> {
            line.text("half a line");
            throw new IllegalStateException(v);
        }, "bug"));
        w.offer(7, LogLine::text, "after");
        w.close();
        assertEquals(List.of("before", "after"), Files.readAllLines(f));
        assertEquals(0, w.droppedTotal());
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
        // 4 bytes: a buffer takes one line, then drops until the writer takes it (every 20 ms).
        assertTrue(accepted > 0 && accepted < 1000, accepted + " of 100,000 taken");
        assertTrue(reports.stream().anyMatch(r -> r.startsWith("LM1202")), reports.toString());
    }

    /**
     * A flush covers every line offered before it, also one in a buffer that a producer is
     * appending its next line to at that moment (the writer waits for it rather than skip it).
     */
    @Test
    void flushCoversEveryLineOfferedBeforeIt() throws Exception {
        Path f = dir.resolve("flush.log");
        try (AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 24, m -> { })) {
            AtomicInteger done = new AtomicInteger(-1);
            AtomicBoolean stop = new AtomicBoolean();
            // A FutureTask, not a bare thread: get() rethrows what fails there.
            FutureTask<Void> producer = new FutureTask<>(() -> {
                for (int n = 0; !stop.get(); n++) {
                    if (w.offer(7, LogLine::number, (long) n)) { // (false only when every buffer is full)
                        done.set(n);
                    }
                    if (n % 64 == 0) {
                        LockSupport.parkNanos(10_000);
                    }
                }
                return null;
            });
            Thread.ofPlatform().start(producer);
            try {
                for (int round = 0; round < 20; round++) {
                    Thread.sleep(2);
                    int d = done.get();
                    assertTrue(w.flush(5000));
                    if (d < 0) {
                        continue; // nothing offered yet
                    }
                    assertTrue(tail(f).contains("\n" + d + "\n"), "line " + d + " was offered before the flush but is not in the file");
                }
            } finally {
                stop.set(true);
                producer.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void reopenStartsAnewFileInOrder() throws Exception {
        Path f = dir.resolve("c.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { });
        w.offer("before");
        w.flush(5000);
        Files.move(f, dir.resolve("c.log.1"));
        w.reopen();
        w.offer("after");
        w.close();
        assertEquals(List.of("before"), Files.readAllLines(dir.resolve("c.log.1")));
        assertEquals(List.of("after"), Files.readAllLines(f));
    }

    /**
     * Two writers appending to one file (as two child processes writing one access log do) never
     * tear each other's lines: every write call holds whole lines, and the file is in append mode.
     */
    @Test
    void twoWritersAppendingToOneFileNeverTearLines() throws Exception {
        Path f = dir.resolve("shared.log");
        String pad = "x".repeat(97);
        int n = 20_000;
        try (AsyncLogWriter a = new AsyncLogWriter(f.toString(), 1 << 24, m -> { });
             AsyncLogWriter b = new AsyncLogWriter(f.toString(), 1 << 24, m -> { })) {
            Thread ta = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < n; i++) {
                    a.offer("a" + pad + i);
                }
            });
            for (int i = 0; i < n; i++) {
                b.offer("b" + pad + i);
            }
            ta.join();
        }
        List<String> lines = Files.readAllLines(f);
        assertEquals(2 * n, lines.size());
        int[] next = new int[2];
        for (String l : lines) {
            int w = l.charAt(0) - 'a';
            assertTrue((w == 0 || w == 1) && l.equals((char) ('a' + w) + pad + next[w]), "torn or out of order: " + l);
            next[w]++;
        }
    }

    @Test
    void reopeningStderrKeepsItOpen() throws Exception {
        AsyncLogWriter w = new AsyncLogWriter("/dev/stderr", 16, m -> { });
        w.reopen();
        assertTrue(w.flush(5000));
        w.close();
        // Closing a stream on FileDescriptor.err closes the process's descriptor 2 and marks it invalid.
        assertTrue(java.io.FileDescriptor.err.valid(), "stderr was closed by reopen");
    }

    /**
     * An idle writer sleeps until a line comes (it does not wake every period to find nothing and
     * sleep again), and that line reaches the file without a flush.
     */
    @Test
    void anIdleWriterSleepsUntilALineComes() throws Exception {
        Path f = dir.resolve("idle.log");
        try (AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { })) {
            w.offer("first");
            awaitLines(f, 1);
            Thread.sleep(3 * AsyncLogWriter.PERIOD_MS); // the batch window after "first" passes
            long before = w.sleeps();
            Thread.sleep(10 * AsyncLogWriter.PERIOD_MS);
            assertTrue(w.sleeps() - before <= 1, "woke and slept again " + (w.sleeps() - before) + " times while idle");
            w.offer("second");
            awaitLines(f, 2);
        }
        assertEquals(List.of("first", "second"), Files.readAllLines(f));
    }

    /**
     * The sleep/wake hand-off loses no line: with a 0 ms batching period the writer falls asleep
     * between nearly every line, while four producers offer in bursts with pauses; every line must
     * reach the file without a flush (a lost wake-up would strand the last ones).
     */
    @Test
    void noLineIsStrandedWhileTheWriterFallsAsleepAndWakes() throws Exception {
        Path f = dir.resolve("stress.log");
        int producers = 4;
        int rounds = 2000;
        try (AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 20, m -> { }, 0)) {
            List<Thread> threads = new ArrayList<>();
            AtomicInteger offered = new AtomicInteger();
            for (int p = 0; p < producers; p++) {
                int id = p;
                threads.add(Thread.ofPlatform().start(() -> {
                    Random random = new Random(id);
                    for (int r = 0; r < rounds; r++) {
                        for (int k = random.nextInt(3); k >= 0; k--) {
                            w.offer(id + " " + r + " " + k);
                            offered.incrementAndGet();
                        }
                        if (random.nextInt(8) == 0) {
                            LockSupport.parkNanos(random.nextInt(200_000));
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            awaitLines(f, offered.get());
            assertEquals(0, w.droppedTotal());
            assertTrue(w.sleeps() > 100, "the writer should have fallen asleep often: " + w.sleeps());
        }
    }

    /**
     * The file's last 4 MiB after a newline (the lines written since the one looked for are
     * fewer: at most what the producer offered while the test read the file).
     */
    private static String tail(Path f) throws Exception {
        try (java.io.RandomAccessFile r = new java.io.RandomAccessFile(f.toFile(), "r")) {
            long end = r.length();
            int n = (int) Math.min(end, 4 << 20);
            byte[] bytes = new byte[n];
            r.seek(end - n);
            r.readFully(bytes);
            String text = new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
            return n == end ? "\n" + text : text.substring(text.indexOf('\n')); // whole lines only
        }
    }

    /** Waits (up to 5 s, no flush) until the file holds {@code n} lines. */
    private static void awaitLines(Path f, int n) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        int seen = 0;
        while (System.nanoTime() < deadline) {
            seen = Files.exists(f) ? Files.readAllLines(f).size() : 0;
            if (seen >= n) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the file has " + seen + " of " + n + " lines after 5 s without a flush");
    }
}
