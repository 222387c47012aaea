package org.loommpm.cli.children;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.engine.ChildState;
import org.loommpm.engine.ChildStats;
import org.loommpm.spi.CloseReason;

/**
 * The shared scoreboard's layout: what one mapping writes another reads back (as the supervisor
 * and a child process do), the offsets the documentation gives, the header check, and the view
 * the status page gets.
 */
class ScoreboardFileTest {
    @TempDir
    Path dir;

    private static ScoreboardFile.Counts counts(int open, long requests) {
        return new ScoreboardFile.Counts(true, open, 3, 5, 40, requests, 12_345, new long[] {7, 2, 1, 0}, 4, 1, 2);
    }

    @Test
    void recordsWrittenThroughOneMappingAreReadThroughAnother() throws Exception {
        Path f = dir.resolve("sb");
        ScoreboardFile supervisor = ScoreboardFile.create(f, 4, 8, 4242);
        ScoreboardFile child = ScoreboardFile.open(f);
        assertEquals(4, child.records());
        assertEquals(8, child.slotsPerChild());
        assertEquals(4242, child.supervisorPid());
        assertEquals(Files.size(f), ScoreboardFile.size(4, 8));

        supervisor.generation(3);
        assertNull(child.read(2), "a cleared record is free");
        child.claim(2, 999, 17, 3, 8, 1_000);
        child.publish(2, counts(6, 100), 2_000);
        child.state(2, ProcState.READY);
        child.slot(2, 5, 'W', 9, 900, 1_500, "GET /hello");

        ScoreboardFile.Child r = supervisor.read(2);
        assertEquals(new ScoreboardFile.Child(2, 999, 17, 3, ProcState.READY, 8, r.counts(), 2_000, 1_000), r);
        assertEquals(6, r.counts().open());
        assertEquals(100, r.counts().requests());
        assertEquals(12_345, r.counts().bytes());
        assertEquals(40, r.counts().accepted());
        assertArrayEquals(new long[] {7, 2, 1, 0}, r.counts().closed());
        assertEquals(List.of(4, 1, 2, 3, 5), List.of(r.counts().keepAlive(), r.counts().lingering(),
                r.counts().pending(), r.counts().active(), r.counts().idle()));
        assertEquals(new ScoreboardFile.Slot('W', 9, 900, 1_500, "GET /hello"), supervisor.readSlot(2, 5));
        assertEquals(new ScoreboardFile.Slot(' ', 0, 0, 0, ""), supervisor.readSlot(2, 4));
        assertEquals(3, child.generation());
        assertNull(supervisor.read(1), "neighbours untouched");
        assertNull(supervisor.read(3));
    }

    @Test
    void theLayoutIsTheDocumentedOne() throws Exception {
        Path f = dir.resolve("sb");
        ScoreboardFile sb = ScoreboardFile.create(f, 2, 3, 77);
        sb.claim(1, 555, 9, 2, 3, 10);
        sb.publish(1, counts(6, 100), 20);
        sb.slot(1, 2, 'R', 4, 44, 30, "POST /a");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.nativeOrder());
        assertEquals(ScoreboardFile.MAGIC, b.getLong(0));
        assertEquals(1, b.getInt(8));
        assertEquals(2, b.getInt(12));
        assertEquals(3, b.getInt(16));
        assertEquals(128, b.getInt(20));
        assertEquals(96, b.getInt(24));
        assertEquals(77, b.getLong(32));
        int child = 128 + 128;
        assertEquals(555, b.getLong(child));
        assertEquals(9, b.getInt(child + 8));
        assertEquals(2, b.getInt(child + 12));
        assertEquals(ProcState.STARTING.ordinal(), b.getInt(child + 16));
        assertEquals(6, b.getInt(child + 24));
        assertEquals(100, b.getLong(child + 48));
        assertEquals(20, b.getLong(child + 64));
        assertEquals(2, b.getLong(child + 88), "closed by timeout");
        int slot = 128 + 2 * 128 + (1 * 3 + 2) * 96;
        assertEquals('R', b.getInt(slot));
        assertEquals(4, b.getLong(slot + 8));
        assertEquals(44, b.getLong(slot + 16));
        assertEquals(30, b.getLong(slot + 24));
        assertEquals('P', b.get(slot + 32));
        assertEquals(0, b.get(slot + 32 + 7));
    }

    @Test
    void aFileOfAnotherVersionOrKindIsRefused() throws Exception {
        Path f = dir.resolve("sb");
        ScoreboardFile.create(f, 2, 2, 1);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, 2), 8);
        }
        IOException e = assertThrows(IOException.class, () -> ScoreboardFile.open(f));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        Files.write(f, new byte[256]);
        assertTrue(assertThrows(IOException.class, () -> ScoreboardFile.open(f)).getMessage().contains("bad magic"));
        Files.write(f, new byte[10]);
        assertTrue(assertThrows(IOException.class, () -> ScoreboardFile.open(f)).getMessage().contains("too short"));
    }

    @Test
    void longRequestLinesAreCutAndNonAsciiReplaced() throws Exception {
        ScoreboardFile sb = ScoreboardFile.create(dir.resolve("sb"), 1, 1, 1);
        sb.slot(0, 0, 'W', 1, 1, 1, "GET /" + "x".repeat(100));
        assertEquals(ScoreboardFile.LINE, sb.readSlot(0, 0).line().length());
        sb.slot(0, 0, 'W', 1, 1, 1, "GET /é");
        assertEquals("GET /?", sb.readSlot(0, 0).line());
    }

    @Test
    void exitedChildrenStayInTheTotalsAndTheirRecordIsFreed() throws Exception {
        ScoreboardFile sb = ScoreboardFile.create(dir.resolve("sb"), 2, 2, 1);
        sb.claim(0, 10, 1, 1, 2, 0);
        sb.publish(0, counts(1, 100), 0);
        sb.state(0, ProcState.READY);
        sb.claim(1, 11, 2, 1, 2, 0);
        sb.publish(1, counts(2, 50), 0);
        sb.state(1, ProcState.FINISHING);
        ScoreboardStats stats = new ScoreboardStats(sb);
        assertEquals(150, stats.requests());
        sb.retire(1);
        assertNull(sb.read(1));
        assertEquals(150, stats.requests(), "the exited child's requests are kept");
        assertEquals(80, stats.connectionsAccepted());
        assertEquals(20, stats.connectionsClosed(), "10 live + 10 of the exited child");
        assertEquals(1, stats.connectionsOpen());
    }

    @Test
    void theStatusViewShowsEveryChildWithItsSlots() throws Exception {
        ScoreboardFile sb = ScoreboardFile.create(dir.resolve("sb"), 3, 4, 1);
        sb.generation(2);
        sb.claim(2, 30, 5, 2, 4, 0);
        sb.publish(2, counts(3, 9), 0);
        sb.state(2, ProcState.READY);
        sb.slot(2, 1, 'W', 2, 20, System.currentTimeMillis(), "GET /slow");
        sb.claim(0, 31, 4, 1, 4, 0);
        sb.state(0, ProcState.FINISHING);
        ScoreboardStats stats = new ScoreboardStats(sb);
        assertEquals(2, stats.generation());
        List<ChildStats> children = stats.children();
        assertEquals(List.of(4, 5), children.stream().map(ChildStats::id).toList(), "by child id");
        ChildStats finishing = children.get(0);
        assertEquals(ChildState.FINISHING, finishing.state());
        assertTrue(finishing.drainReason().contains("pid 31"));
        ChildStats ready = children.get(1);
        assertEquals(ChildState.READY, ready.state());
        assertEquals("_W__", ready.scoreboard().render());
        assertEquals("/slow", ready.scoreboard().current(1).request().path());
        assertEquals(2, ready.scoreboard().accesses(1));
        assertEquals(1, ready.connectionsClosed(CloseReason.ERROR));
    }

    /**
     * The single-writer contract under load: one thread publishes through one mapping while
     * another reads through a second one (as a child process and the supervisor do); no field is
     * ever seen torn, and each reader sees the writer's values grow.
     */
    @Test
    void aReaderNeverSeesATornFieldWhileTheOwnerPublishes() throws Exception {
        Path f = dir.resolve("sb");
        ScoreboardFile owner = ScoreboardFile.create(f, 1, 1, 1);
        ScoreboardFile reader = ScoreboardFile.open(f);
        owner.claim(0, 5, 1, 1, 1, 0);
        owner.state(0, ProcState.READY);
        int rounds = 200_000;
        Thread writer = Thread.ofPlatform().start(() -> {
            for (long k = 1; k <= rounds; k++) {
                long v = k << 32 | k; // both halves equal: a torn read would differ
                owner.publish(0, new ScoreboardFile.Counts(true, (int) k, 0, 0, v, v, v, new long[] {v, v, v, v}, 0, 0,
                        0), v);
                owner.slot(0, 0, 'W', v, v, v, "GET /x");
            }
        });
        long last = 0;
        long reads = 0;
        while (writer.isAlive() || reads == 0) {
            ScoreboardFile.Child c = reader.read(0);
            for (long v : new long[] {c.counts().accepted(), c.counts().requests(), c.counts().bytes(),
                c.counts().closed()[3], c.heartbeatMillis()}) {
                assertEquals(v >>> 32, v & 0xffffffffL, "torn: " + Long.toHexString(v));
            }
            long v = reader.readSlot(0, 0).requests();
            assertEquals(v >>> 32, v & 0xffffffffL, "torn slot: " + Long.toHexString(v));
            assertTrue(c.counts().requests() >= last, "went back");
            last = c.counts().requests();
            reads++;
        }
        writer.join();
        assertEquals((long) rounds << 32 | rounds, reader.read(0).counts().requests());
    }
}
