package org.loommpm.bench.jmh;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.loommpm.engine.RecycleList;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The per-poller context free list under its real pattern: P workers push contexts they are
 * done with, one poller pops. {@link RecycleList} against the two JDK queues one would
 * otherwise use, all bounded at the default {@code RecycleListSize} (64): a full list drops the
 * context, exactly as the engine does. {@link ConcurrentLinkedQueue} has no bound of its own, so
 * it gets the same CAS-reserved counter {@code RecycleList} uses.
 *
 * <p>Groups {@code p1}..{@code p4} run 1-4 pushing threads against one popping thread. Every
 * push offers a freshly allocated context (an intrusive node can be in one list at a time, so
 * reusing one the consumer may still hold would be a bug), the same cost for every
 * implementation. The auxiliary counters split the outcomes: {@code pushed}/{@code dropped}
 * (list full) and {@code popped}/{@code empty}; {@code popped} is the transfer rate. Those
 * transfers need producers and consumer on CPUs at the same time: with more threads than
 * cores (or a busy machine) the list fills while the consumer is descheduled and drains while
 * the producers are, so the push and pop rates measure each operation's cost under contention
 * better than {@code popped} does. {@link #pushPop} is the uncontended cost of one push and one
 * pop on a single thread, which does not depend on scheduling.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RecycleListBench {
    /** The engine's default RecycleListSize. */
    static final int CAPACITY = 64;

    /** A context stand-in carrying the intrusive link. */
    static final class Ctx extends RecycleList.Node<Ctx> {
    }

    /** The operations the benchmark needs from each implementation. */
    interface FreeList {
        boolean push(Ctx c);

        Ctx pop();
    }

    /** The list shared by one group's producers and its consumer. */
    @State(Scope.Group)
    public static class Shared {
        @Param({"RecycleList", "ConcurrentLinkedQueue", "ArrayBlockingQueue"})
        public String impl;
        FreeList list;

        @Setup(Level.Iteration)
        public void setUp() {
            list = switch (impl) {
                case "RecycleList" -> recycleList();
                case "ConcurrentLinkedQueue" -> boundedClq();
                case "ArrayBlockingQueue" -> abq();
                default -> throw new IllegalArgumentException(impl);
            };
        }

        private static FreeList recycleList() {
            RecycleList<Ctx> l = new RecycleList<>(CAPACITY);
            return new FreeList() {
                @Override public boolean push(Ctx c) { return l.push(c); }
                @Override public Ctx pop() { return l.pop(); }
            };
        }

        private static FreeList boundedClq() {
            ConcurrentLinkedQueue<Ctx> q = new ConcurrentLinkedQueue<>();
            AtomicInteger size = new AtomicInteger();
            return new FreeList() {
                @Override
                public boolean push(Ctx c) {
                    int s;
                    do {
                        s = size.get();
                        if (s >= CAPACITY) {
                            return false;
                        }
                    } while (!size.compareAndSet(s, s + 1));
                    return q.offer(c);
                }

                @Override
                public Ctx pop() {
                    Ctx c = q.poll();
                    if (c != null) {
                        size.decrementAndGet();
                    }
                    return c;
                }
            };
        }

        private static FreeList abq() {
            ArrayBlockingQueue<Ctx> q = new ArrayBlockingQueue<>(CAPACITY);
            return new FreeList() {
                @Override public boolean push(Ctx c) { return q.offer(c); }
                @Override public Ctx pop() { return q.poll(); }
            };
        }
    }

    /** Per-thread outcome counts, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long pushed;
        public long dropped;
        public long popped;
        public long empty;

        @Setup(Level.Iteration)
        public void reset() {
            pushed = 0;
            dropped = 0;
            popped = 0;
            empty = 0;
        }
    }

    /** One thread's own list, for {@link #pushPop}. */
    @State(Scope.Thread)
    public static class Own extends Shared {
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Ctx pushPop(Own s) {
        s.list.push(new Ctx());
        return s.list.pop();
    }

    static void push(Shared s, Outcomes o) {
        if (s.list.push(new Ctx())) {
            o.pushed++;
        } else {
            o.dropped++;
        }
    }

    static Ctx pop(Shared s, Outcomes o) {
        Ctx c = s.list.pop();
        if (c != null) {
            o.popped++;
        } else {
            o.empty++;
        }
        return c;
    }

    @Benchmark @Group("p1") @GroupThreads(1)
    public void p1Push(Shared s, Outcomes o) {
        push(s, o);
    }

    @Benchmark @Group("p1") @GroupThreads(1)
    public Ctx p1Pop(Shared s, Outcomes o) {
        return pop(s, o);
    }

    @Benchmark @Group("p2") @GroupThreads(2)
    public void p2Push(Shared s, Outcomes o) {
        push(s, o);
    }

    @Benchmark @Group("p2") @GroupThreads(1)
    public Ctx p2Pop(Shared s, Outcomes o) {
        return pop(s, o);
    }

    @Benchmark @Group("p3") @GroupThreads(3)
    public void p3Push(Shared s, Outcomes o) {
        push(s, o);
    }

    @Benchmark @Group("p3") @GroupThreads(1)
    public Ctx p3Pop(Shared s, Outcomes o) {
        return pop(s, o);
    }

    @Benchmark @Group("p4") @GroupThreads(4)
    public void p4Push(Shared s, Outcomes o) {
        push(s, o);
    }

    @Benchmark @Group("p4") @GroupThreads(1)
    public Ctx p4Pop(Shared s, Outcomes o) {
        return pop(s, o);
    }
}
