package org.loommpm.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A poller's timer ring: every connection deadline the poller enforces (keep-alive, request head,
 * I/O wait, linger).
 *
 * <p>Two structures, as in httpd's event MPM: one FIFO <em>lane</em> per timeout duration (all
 * keep-alive deadlines share KeepAliveTimeout, so a deadline appended now is never earlier than
 * one appended before: append and expiry are O(1) and cancel is O(1) through the intrusive
 * links), and a sorted set for arbitrary absolute deadlines (a request head's deadline is fixed
 * when its first byte arrives). The sorted set orders by deadline, then by timer id, so two
 * connections with the same deadline are both kept.
 *
 * <p><b>Thread confinement:</b> poller-confined. Workers never touch it; they hand their
 * re-arm requests to the poller, which schedules here.
 */
final class TimerRing {
    /** An intrusive timer node; a connection is one. */
    abstract static class Timer {
        /** Unique and stable: the tie-break of equal deadlines. */
        final long timerId;
        long deadline;
        Timer prev;
        Timer next;
        Lane lane;
        boolean inSorted;

        Timer(long timerId) {
            this.timerId = timerId;
        }
    }

    /** Timers sharing one duration, in deadline order because they are appended in time order. */
    private static final class Lane {
        final long duration;
        Timer head;
        Timer tail;

        Lane(long duration) {
            this.duration = duration;
        }
    }

    /** Deadline order, ties by id. A class, not a lambda, which would spin one as the first poller starts. */
    static final Comparator<Timer> BY_DEADLINE_THEN_ID = new ByDeadlineThenId();

    private static final class ByDeadlineThenId implements Comparator<Timer> {
        @Override
        public int compare(Timer a, Timer b) {
            int c = Long.compare(a.deadline, b.deadline);
            return c != 0 ? c : Long.compare(a.timerId, b.timerId);
        }
    }

    private final List<Lane> lanes = new ArrayList<>(4);
    private final TreeSet<Timer> sorted = new TreeSet<>(BY_DEADLINE_THEN_ID);
    private int size;

    /** Schedules {@code t} at {@code now + duration}, replacing any deadline it had. */
    void schedule(Timer t, long duration, long now) {
        cancel(t);
        Lane lane = lane(duration);
        t.deadline = now + duration;
        t.lane = lane;
        t.prev = lane.tail;
        t.next = null;
        if (lane.tail == null) {
            lane.head = t;
        } else {
            lane.tail.next = t;
        }
        lane.tail = t;
        size++;
    }

    /** Schedules {@code t} at an absolute {@code deadline}, replacing any deadline it had. */
    void scheduleAt(Timer t, long deadline) {
        cancel(t);
        t.deadline = deadline;
        t.inSorted = true;
        sorted.add(t);
        size++;
    }

    /** Removes {@code t}'s deadline; returns whether it had one. */
    boolean cancel(Timer t) {
        if (t.lane != null) {
            Lane lane = t.lane;
            if (t.prev == null) {
                lane.head = t.next;
            } else {
                t.prev.next = t.next;
            }
            if (t.next == null) {
                lane.tail = t.prev;
            } else {
                t.next.prev = t.prev;
            }
            t.prev = null;
            t.next = null;
            t.lane = null;
            size--;
            return true;
        }
        if (t.inSorted) {
            sorted.remove(t);
            t.inSorted = false;
            size--;
            return true;
        }
        return false;
    }

    /** Whether {@code t} has a deadline here. */
    boolean isScheduled(Timer t) {
        return t.lane != null || t.inSorted;
    }

    /** The earliest deadline, or {@link Long#MAX_VALUE} when nothing is scheduled. */
    long nextDeadline() {
        long next = sorted.isEmpty() ? Long.MAX_VALUE : sorted.first().deadline;
        for (int i = 0; i < lanes.size(); i++) {
            Timer h = lanes.get(i).head;
            if (h != null && h.deadline < next) {
                next = h.deadline;
            }
        }
        return next;
    }

    /** Removes and returns one timer whose deadline is at or before {@code now}, or {@code null}. */
    Timer pollExpired(long now) {
        for (int i = 0; i < lanes.size(); i++) {
            Timer h = lanes.get(i).head;
            if (h != null && h.deadline - now <= 0) {
                cancel(h);
                return h;
            }
        }
        if (!sorted.isEmpty() && sorted.first().deadline - now <= 0) {
            Timer t = sorted.pollFirst();
            t.inSorted = false;
            size--;
            return t;
        }
        return null;
    }

    /** Timers scheduled. */
    int size() {
        return size;
    }

    private Lane lane(long duration) {
        for (int i = 0; i < lanes.size(); i++) {
            if (lanes.get(i).duration == duration) {
                return lanes.get(i);
            }
        }
        Lane lane = new Lane(duration);
        lanes.add(lane);
        return lane;
    }
}
