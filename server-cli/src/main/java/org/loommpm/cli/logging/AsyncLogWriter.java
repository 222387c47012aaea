package org.loommpm.cli.logging;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Writes log lines to one destination from a background thread, so a slow disk never blocks a
 * request. Callers format their line straight into one of a few shared buffers
 * ({@link LogStripes}) and return at once; when the buffers are full the line is dropped and
 * counted (never a blocked worker), and the writer reports the count once it catches up.
 * {@link #reopen} closes and reopens the file after the lines written so far (log rotation on
 * graceful restart, or a file removed under the server). A write that fails (disk full, file
 * gone) loses its batch and is reported once per episode ({@link WriteFailures}); the writer keeps
 * going, so logging resumes when space is freed or the path is reopened.
 *
 * <p>The writer is not woken per line: it takes every stripe's buffer (swapping in an empty
 * one) and writes it, then sleeps {@value #PERIOD_MS} ms. Waking it for every line would cost
 * each request a futex wake, a context switch and a write(2) of its own; batching makes that
 * once per period under load, at the price of lines reaching the file up to that much later.
 * A stripe filling past half its share wakes the writer early; {@link #flush} and
 * {@link #close} wake it at once.
 *
 * <p><b>Idle.</b> A period that brought no line puts the writer to sleep without a timeout, so
 * an idle server's log threads do not wake 50 times a second each (they were most of an idle
 * jar's wake-ups). The hand-off is a Dekker pair of volatiles: the writer sets {@code asleep},
 * then looks at every stripe once more (taking each one's lock) before it parks; a producer
 * releases its stripe, then reads {@code asleep} and, if set, clears it and unparks the writer.
 * Either the writer sees the line or the producer sees the flag, so no line waits for the next
 * one. Only the first line after a quiet period pays the wake-up (and reaches the file at
 * once); the lines that follow it within the period ride on the batch.
 *
 * <p>Each write call holds whole lines only (a stripe's buffer is whole lines), and files are
 * opened with {@code O_APPEND}. So several processes appending to one file (the child processes
 * of {@code ChildProcesses On} writing one access log) never tear each other's lines: on a local
 * file system each append write lands whole at the end of the file.
 */
public final class AsyncLogWriter implements AutoCloseable {
    /** Formats one line (without its newline) into a writer's buffer. */
    @FunctionalInterface
    public interface LineFormat<T> {
        /**
         * Appends the line for {@code value}. It runs holding one of the writer's buffers, so it
         * must be quick and must not block.
         */
        void format(LogLine line, T value);
    }

    /** Bytes a writer buffers before it starts dropping lines (shared out among its stripes). */
    public static final int DEFAULT_CAPACITY = 1 << 20;
    /** How long the writer sleeps after a batch before it looks for the next. */
    static final long PERIOD_MS = 20;

    /** A reopen request; {@code done} is counted down once the file is open again (or failed to). */
    private record Reopen(CountDownLatch done) {
    }

    private static final Object STOP = new Object();
    private static final LineFormat<String> TEXT = new Text();

    private final String target;
    private final LogStripes stripes;
    /**
     * Each stripe's share of the capacity, in bytes: a stripe takes a line while it holds less,
     * so it holds at most this and one line; a line whose stripe is full goes to another.
     */
    private final int stripeBytes;
    /** Flushes, reopens and the stop, in order; never dropped. */
    private final ConcurrentLinkedQueue<Object> controls = new ConcurrentLinkedQueue<>();
    private final AtomicLong dropped = new AtomicLong();
    private final Consumer<String> dropReport;
    private final Thread thread;
    private final long periodNanos;
    /** Set by the writer before it parks without a timeout; cleared by the producer that wakes it. */
    private final AtomicBoolean asleep = new AtomicBoolean();
    /** Times the writer went to sleep with nothing to do (written by it alone; read by tests). */
    private volatile long sleeps;
    private volatile boolean closed;
    /** Of {@link #dropped}, how many were reported; writer thread only. */
    private long reportedDrops;
    private OutputStream out;
    /** Write failures of the destination; writer thread only. */
    private final WriteFailures failures;
    /** The empty buffer the writer gives the next stripe it takes; writer thread only. */
    private LogLine spare;

    /**
     * Opens {@code target} (appending) and starts the writer thread.
     *
     * @param target a file path, {@code /dev/stdout} or {@code /dev/stderr}
     * @param capacity bytes buffered before dropping
     * @param dropReport told, from the writer thread, how many lines were dropped when it catches up
     * @throws IOException if the file cannot be opened
     */
    public AsyncLogWriter(String target, int capacity, Consumer<String> dropReport) throws IOException {
        this(target, capacity, dropReport, PERIOD_MS);
    }

    /** With another batching period: tests make the writer fall idle between nearly every line. */
    AsyncLogWriter(String target, int capacity, Consumer<String> dropReport, long periodMillis) throws IOException {
        this.target = target;
        this.periodNanos = periodMillis * 1_000_000L;
        // More stripes than threads that can run at once, so a key rarely finds its stripe held.
        int count = Math.min(64, 4 * Runtime.getRuntime().availableProcessors());
        int initial = Math.max(16, Math.min(4096, capacity / count));
        this.stripes = new LogStripes(count, initial);
        this.stripeBytes = Math.max(1, capacity / stripes.count());
        this.spare = new LogLine(initial);
        this.dropReport = dropReport;
        this.out = open(target);
        this.failures = new WriteFailures(target);
        this.thread = Thread.ofPlatform().daemon().name("loom-log " + target).start(new Runnable() {
            @Override
            public void run() {
                drain();
            }
        });
    }

    private static OutputStream open(String target) throws IOException {
        return switch (target) {
            case "/dev/stdout" -> new FileOutputStream(FileDescriptor.out);
            case "/dev/stderr" -> new FileOutputStream(FileDescriptor.err);
            default -> new FileOutputStream(target, true);
        };
    }

    /** The destination. */
    public String target() {
        return target;
    }

    /**
     * Writes one line of text (a newline is added), keyed by the calling thread. Never blocks.
     *
     * @return false if it was dropped (buffers full or writer closed)
     */
    public boolean offer(String line) {
        return offer((int) Thread.currentThread().threadId(), TEXT, line);
    }

    /**
     * Formats one line straight into the writer's buffers (a newline is added). Lines offered
     * with the same {@code key} (a client connection's, say) reach the file in the order they
     * were offered, unless its buffer stayed busy or filled up (see {@link LogStripes}); the
     * line is dropped only when every buffer is full or busy. Never blocks. If {@code format}
     * throws, nothing of the line is kept and the exception propagates.
     *
     * @return false if it was dropped (buffers full or busy, or writer closed)
     */
    public <T> boolean offer(int key, LineFormat<? super T> format, T value) {
        int i = closed ? -1 : stripes.acquireRoom(key, stripeBytes);
        if (i < 0) {
            dropped.incrementAndGet();
            return false;
        }
        int start;
        int end;
        try {
            LogLine buffer = stripes.line(i);
            start = buffer.length();
            try {
                format.format(buffer, value);
                buffer.ascii('\n');
            } catch (RuntimeException | Error e) {
                buffer.truncate(start);
                throw e;
            }
            end = buffer.length();
        } finally {
            stripes.release(i);
        }
        int half = stripeBytes / 2;
        if (start < half && end >= half) {
            LockSupport.unpark(thread); // filling up: write it before the period ends
        } else if (asleep.get() && asleep.compareAndSet(true, false)) {
            // After the release (see "Idle" in the class comment); a plain read first, so a
            // busy writer's producers do not all write the flag's cache line.
            LockSupport.unpark(thread);
        }
        return true;
    }

    /** How many times the writer has gone to sleep with nothing to do (for tests of the idle sleep). */
    long sleeps() {
        return sleeps;
    }

    /** Lines dropped since start. */
    public long droppedTotal() {
        return dropped.get();
    }

    /**
     * Closes and reopens the file after the lines offered before this call are written (log
     * rotation); returns when it has (waiting up to 5 s), so lines offered after it go to the
     * new file.
     */
    public void reopen() {
        if (!closed) {
            Reopen r = new Reopen(new CountDownLatch(1));
            controls.add(r);
            LockSupport.unpark(thread);
            try {
                r.done().await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits (up to {@code millis}) until every line offered before this call is written.
     *
     * @return whether it finished in time
     */
    public boolean flush(long millis) {
        if (closed) {
            return true;
        }
        CountDownLatch done = new CountDownLatch(1);
        controls.add(done);
        LockSupport.unpark(thread);
        try {
            return done.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Writes what was offered and closes (within 5 s); later lines are dropped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        controls.add(STOP);
        LockSupport.unpark(thread);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        try {
            for (;;) {
                Object control = controls.poll();
                // A flush, reopen or stop covers every line offered before it.
                boolean wrote = writeStripes();
                if (control instanceof CountDownLatch latch) {
                    latch.countDown();
                } else if (control instanceof Reopen r) {
                    // stdout and stderr are the process's own descriptors: closing them would
                    // lose every later line, and there is nothing to rotate.
                    try {
                        if (!target.startsWith("/dev/std")) {
                            reopenFile();
                        }
                    } finally {
                        r.done().countDown();
                    }
                } else if (control == STOP) {
                    reportDrops();
                    if (!target.startsWith("/dev/std")) {
                        closeQuietly(out);
                    }
                    return;
                }
                if (control != null) {
                    continue;
                }
                reportDrops();
                if (wrote) {
                    LockSupport.parkNanos(this, periodNanos); // lines coming: batch the next ones
                } else {
                    sleepUntilALine();
                }
            }
        } catch (RuntimeException | Error e) {
            System.err.println("LM1203 log writer for " + target + " stopped: " + e);
            closed = true;
            throw e;
        }
    }

    /**
     * Closes the file and opens its path again (rotation, or a file removed under the server:
     * the path gets a new file). If the path cannot be opened, the old file is kept (LM2103).
     */
    private void reopenFile() {
        OutputStream fresh;
        try {
            fresh = open(target);
        } catch (IOException e) {
            report("LM2103 reopening the log " + target + " failed (" + e + "); still writing to the file opened before");
            return;
        }
        closeQuietly(out);
        out = fresh;
    }

    private static void closeQuietly(OutputStream s) {
        try {
            s.close();
        } catch (IOException e) {
            // Nothing more to do with a file being let go; its write errors were reported.
        }
    }

    /** Writes one batch; a failure loses it and is reported once per episode ({@link WriteFailures}). */
    private void write(byte[] b, int len) {
        String message;
        try {
            out.write(b, 0, len);
            message = failures.succeeded();
        } catch (IOException e) {
            message = failures.failed(e, len);
        }
        if (message != null) {
            report(message);
        }
    }

    /**
     * Says it on stderr, which the error log cannot replace when it is the log failing, and to
     * {@code dropReport} (the error log, when another file fails).
     */
    private void report(String message) {
        System.err.println(message);
        dropReport.accept(message);
    }

    /** Whether the last write to the destination failed (tests). */
    boolean writeFailing() {
        return failures.failing();
    }

    /**
     * Takes and writes every stripe's lines, one write call per stripe. A stripe held by a
     * producer is waited for (it is formatting one line): skipping it would leave a busy
     * stripe to fill up and drop lines for a whole period, and a flush must cover it.
     *
     * @return whether anything was written
     */
    private boolean writeStripes() {
        boolean wrote = false;
        for (int i = 0; i < stripes.count(); i++) {
            for (int tries = 0; !stripes.tryAcquire(i); tries++) {
                if (tries < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // its holder may be waiting for this core
                }
            }
            LogLine full = stripes.line(i).length() > 0 ? stripes.swap(i, spare) : null;
            stripes.release(i);
            if (full != null) {
                write(full.array(), full.length());
                full.truncate(0);
                spare = full;
                wrote = true;
            }
        }
        return wrote;
    }

    /** Parks without a timeout unless a line arrived after all (see "Idle" in the class comment). */
    private void sleepUntilALine() {
        asleep.set(true);
        if (controls.isEmpty() && stripesEmpty()) {
            sleeps++;
            LockSupport.park(this);
        }
        asleep.set(false);
    }

    /** Whether no stripe holds a line; a held stripe counts as not empty. */
    private boolean stripesEmpty() {
        for (int i = 0; i < stripes.count(); i++) {
            if (!stripes.tryAcquire(i)) {
                return false;
            }
            boolean empty = stripes.line(i).length() == 0;
            stripes.release(i);
            if (!empty) {
                return false;
            }
        }
        return true;
    }

    private void reportDrops() {
        // The count only grows, and the writer keeps what it has reported: a reader of
        // droppedTotal never sees lines in transit between two counters.
        long total = dropped.get();
        long n = total - reportedDrops;
        if (n > 0) {
            reportedDrops = total;
            dropReport.accept("LM1202 " + n + " log line(s) for " + target + " dropped: the writer could not keep up "
                    + "(" + stripes.count() + " buffers of " + stripeBytes + " bytes full or busy)");
        }
    }

    /** {@link #TEXT}: a class rather than {@code LogLine::text}, which the start would spin a class for. */
    private static final class Text implements LineFormat<String> {
        @Override
        public void format(LogLine line, String value) {
            line.text(value);
        }
    }
}
