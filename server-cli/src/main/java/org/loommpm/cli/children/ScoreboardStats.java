package org.loommpm.cli.children;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.engine.ChildState;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;
import org.loommpm.engine.Scoreboard;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.SlotBoard;

/**
 * Every child process as {@link EngineStats}, read from the shared {@link ScoreboardFile}: what
 * {@code server-status} shows in a child process, whichever child serves the request. Each call
 * reads the file afresh (a live view; see the file's single-writer rule).
 *
 * <p>Per child it carries what the file records: state, generation, connections (open, accepted,
 * closed by reason, keep-alive, lingering), worker slots (active, idle, pending, and each slot's
 * letter, counts and request). Per-poller rows, recycle lists, admission transitions, the
 * connection bound and the newcomer lane stay inside each process and are shown as zero. Totals include children that have exited.
 */
public final class ScoreboardStats implements EngineStats {
    private final ScoreboardFile file;

    public ScoreboardStats(ScoreboardFile file) {
        this.file = file;
    }

    private List<ScoreboardFile.Child> live() {
        List<ScoreboardFile.Child> out = new ArrayList<>();
        for (int i = 0; i < file.records(); i++) {
            ScoreboardFile.Child c = file.read(i);
            if (c != null) {
                out.add(c);
            }
        }
        out.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return out;
    }

    @Override
    public Instant startTime() {
        return Instant.ofEpochMilli(file.startMillis());
    }

    @Override
    public int generation() {
        return file.generation();
    }

    @Override
    public long connectionsAccepted() {
        long n = file.exitedTotals()[2];
        for (ScoreboardFile.Child c : live()) {
            n += c.counts().accepted();
        }
        return n;
    }

    @Override
    public long connectionsClosed(CloseReason reason) {
        long n = 0;
        for (ScoreboardFile.Child c : live()) {
            n += c.counts().closed()[reason.ordinal()];
        }
        return n;
    }

    /** All closes, those of exited children included (the file keeps their sum, not their reasons). */
    @Override
    public long connectionsClosed() {
        long n = file.exitedTotals()[3];
        for (CloseReason r : CloseReason.values()) {
            n += connectionsClosed(r);
        }
        return n;
    }

    @Override
    public long connectionsOpen() {
        long n = 0;
        for (ScoreboardFile.Child c : live()) {
            n += c.counts().open();
        }
        return n;
    }

    @Override
    public long requests() {
        long n = file.exitedTotals()[0];
        for (ScoreboardFile.Child c : live()) {
            n += c.counts().requests();
        }
        return n;
    }

    @Override
    public long bytesSent() {
        long n = file.exitedTotals()[1];
        for (ScoreboardFile.Child c : live()) {
            n += c.counts().bytes();
        }
        return n;
    }

    @Override
    public List<ChildStats> children() {
        List<ChildStats> out = new ArrayList<>();
        for (ScoreboardFile.Child c : live()) {
            out.add(new ProcessChild(c, slots(c)));
        }
        return out;
    }

    private Scoreboard slots(ScoreboardFile.Child c) {
        int n = Math.min(c.slotsInUse(), file.slotsPerChild());
        Scoreboard board = Scoreboard.detached(n);
        long nowMillis = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        for (int s = 0; s < n; s++) {
            ScoreboardFile.Slot slot = file.readSlot(c.record(), s);
            SlotBoard.RequestInfo request = slot.line().isEmpty() ? null : new Line(slot.line());
            long start = nowNanos - Math.max(0, nowMillis - slot.startedMillis()) * 1_000_000L;
            board.load(s, slot.letter() == ' ' ? (char) Scoreboard.WAITING : slot.letter(), slot.requests(),
                    slot.bytes(), request, start);
        }
        return board;
    }

    /** A request line from the file: "METHOD path" (the Host is not recorded). */
    private record Line(String line) implements SlotBoard.RequestInfo {
        @Override
        public String method() {
            int sp = line.indexOf(' ');
            return sp < 0 ? line : line.substring(0, sp);
        }

        @Override
        public String path() {
            int sp = line.indexOf(' ');
            return sp < 0 ? "" : line.substring(sp + 1);
        }

        @Override
        public String host() {
            return null;
        }
    }

    /** One child process as {@link ChildStats}. */
    private record ProcessChild(ScoreboardFile.Child c, Scoreboard board) implements ChildStats {
        @Override public int id() { return c.id(); }
        @Override public int generation() { return c.generation(); }
        @Override public boolean accepting() { return c.counts().accepting(); }
        @Override public ChildState state() { return c.state().lifecycle(); }
        @Override public boolean draining() { return state().draining(); }

        @Override
        public String drainReason() {
            return switch (c.state()) {
                case RETIRING -> "pid " + c.pid() + ": MaxConnectionsPerChild reached, replacement starting";
                case FINISHING -> "pid " + c.pid() + ": told to drain by the supervisor";
                case IDLE_KILLED -> "pid " + c.pid() + ": more free slots than MaxSpareThreads";
                case STOPPING -> "pid " + c.pid() + ": graceful stop";
                default -> "";
            };
        }

        @Override public int openConnections() { return c.counts().open(); }
        @Override public long connectionsAccepted() { return c.counts().accepted(); }
        @Override public long connectionsClosed(CloseReason reason) { return c.counts().closed()[reason.ordinal()]; }
        @Override public long requests() { return c.counts().requests(); }
        @Override public long bytesSent() { return c.counts().bytes(); }
        @Override public int keepAliveConnections() { return c.counts().keepAlive(); }
        @Override public int lingeringConnections() { return c.counts().lingering(); }
        @Override public int contextsHeld() { return 0; }
        @Override public int activeWorkers() { return c.counts().active(); }
        @Override public int idleWorkers() { return c.counts().idle(); }
        @Override public int pendingWorkers() { return c.counts().pending(); }
        @Override public boolean admissionOpen() { return c.counts().accepting(); }
        @Override public long admissionTransitions() { return 0; }
        @Override public int pendingNewcomers() { return 0; }
        @Override public int connectionBound() { return 0; }
        @Override public long admissionPausedMillis() { return 0; }
        @Override public long pollerWakeups() { return 0; }
        @Override public long dispatches() { return 0; }
        @Override public long timersFired() { return 0; }
        @Override public long recycleHits() { return 0; }
        @Override public long recycleMisses() { return 0; }
        @Override public long recycleDrops() { return 0; }
        @Override public int recycleListSize() { return 0; }
        @Override public int pollers() { return 0; }
        @Override public List<PollerStats> pollerStats() { return List.of(); }
        @Override public Scoreboard scoreboard() { return board; }
    }
}
