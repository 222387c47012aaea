package org.loommpm.bench.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.AdmissionControl;
import org.loommpm.engine.EngineBenchFixture;
import org.loommpm.engine.WorkerPool;
import org.loommpm.spi.WorkerTask;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the engine adds per request on its dispatch path: {@link AdmissionControl#evaluate} (the
 * listener poller runs it once per loop and after each accept) and {@link WorkerPool#dispatch}
 * against the bare cost of starting a virtual thread per task. The JMH thread plays the poller
 * (a platform thread); the tasks are empty, so the figures are the overhead per task including
 * the virtual thread's start, run and end on the carrier pool. {@code dispatch} sends
 * {@value #FREE} tasks (fewer than ThreadsPerChild, so each gets a fresh virtual thread: the
 * usual case); {@code dispatchSaturated} sends {@value #SATURATED}, so most wait as pending and
 * run on a worker that finished its previous task. The pool comes from
 * {@link EngineBenchFixture} (its constructor is package-private).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class DispatchBench {
    static final int FREE = 128;
    static final int SATURATED = 4096;

    private final AtomicInteger left = new AtomicInteger();
    private Thread waiter;
    private WorkerPool pool;
    private AdmissionControl admission;
    private WorkerTask task;
    private Runnable runnable;

    @Setup
    public void setUp() {
        pool = EngineBenchFixture.workerPool(ServerConfig.DEFAULT_THREADS_PER_CHILD);
        admission = new AdmissionControl(ServerConfig.DEFAULT_THREADS_PER_CHILD * 16, true);
        waiter = Thread.currentThread();
        task = slot -> done();
        runnable = this::done;
    }

    private void done() {
        if (left.decrementAndGet() == 0) {
            LockSupport.unpark(waiter);
        }
    }

    private void await() {
        while (left.get() > 0) {
            LockSupport.park(this);
        }
    }

    @Benchmark
    public boolean admissionEvaluate() {
        return admission.evaluate(pool.active(), System.nanoTime());
    }

    @Benchmark
    @OperationsPerInvocation(FREE)
    public void dispatch() {
        left.set(FREE);
        for (int i = 0; i < FREE; i++) {
            pool.dispatch(task);
        }
        await();
    }

    @Benchmark
    @OperationsPerInvocation(SATURATED)
    public void dispatchSaturated() {
        left.set(SATURATED);
        for (int i = 0; i < SATURATED; i++) {
            pool.dispatch(task);
        }
        await();
    }

    @Benchmark
    @OperationsPerInvocation(FREE)
    public void virtualThreadPerTask() {
        left.set(FREE);
        for (int i = 0; i < FREE; i++) {
            Thread.ofVirtual().start(runnable);
        }
        await();
    }
}
