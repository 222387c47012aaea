package org.loommpm.cli.logging;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Writes log lines to one destination from a background thread, so a slow disk never blocks a
 * request. Callers hand lines to a bounded lock-free queue ({@link LineQueue}) and return at
 * once; when the queue is full the line is dropped and counted (never a blocked worker), and the
 * writer reports the count once it catches up. {@link #reopen} closes and reopens the file in
 * order with the lines (log rotation on graceful restart).
 *
 * <p>The writer is not woken per line: it drains the queue, writes and flushes the batch, then
 * sleeps {@value #PERIOD_MS} ms. Waking it for every line would cost each request a futex wake,
 * a context switch and a write(2) of its own; batching makes that once per period under load,
 * at the price of lines reaching the file up to that much later. {@link #flush} and
 * {@link #close} wake it at once.
 *
 * <p><b>Idle.</b> A period that brought no line puts the writer to sleep without a timeout, so
 * an idle server's log threads do not wake 50 times a second each (they were most of an idle
 * jar's wake-ups). The hand-off is a Dekker pair on two volatiles: the writer sets
 * {@code asleep}, then looks at the queue once more before it parks; a producer links its line,
 * then reads {@code asleep} and, if set, clears it and unparks the writer. Either the writer sees
 * the line or the producer sees the flag, so no line waits for the next one. Only the first line
 * after a quiet period pays the wake-up (and reaches the file at once); the lines that follow it
 * within the period ride on the batch.
 *
 * <p>Each batch goes to the destination in write calls that hold whole lines only (a line is
 * never split across two), and files are opened with {@code O_APPEND}. So several processes
 * appending to one file (the child processes of {@code ChildProcesses On} writing one access
 * log) never tear each other's lines: on a local file system each append write lands whole at
 * the end of the file. A line longer than the 64 KiB buffer gets a write call of its own.
 */
public final class AsyncLogWriter implements AutoCloseable {
    /** Lines a writer holds before it starts dropping. */
    public static final int DEFAULT_CAPACITY = 16384;
    /** How long the writer sleeps after a batch before it looks for the next. */
    static final long PERIOD_MS = 20;

    private static final Object REOPEN = new Object();
    private static final Object STOP = new Object();

    private final String target;
    private final LineQueue queue;
    private final AtomicLong dropped = new AtomicLong();
    private final Consumer<String> dropReport;
    private final Thread thread;
    private final int capacity;
    private final long periodNanos;
    /** Set by the writer before it parks without a timeout; cleared by the producer that wakes it. */
    private final AtomicBoolean asleep = new AtomicBoolean();
    /** Times the writer went to sleep with nothing to do (written by it alone; read by tests). */
    private volatile long sleeps;
    private volatile boolean closed;
    /** Of {@link #dropped}, how many were reported; writer thread only. */
    private long reportedDrops;
    private OutputStream out;
    /** Whole lines waiting for one write; writer thread only. */
    private final byte[] buffer = new byte[64 * 1024];
    private int buffered;

    /**
     * Opens {@code target} (appending) and starts the writer thread.
     *
     * @param target a file path, {@code /dev/stdout} or {@code /dev/stderr}
     * @param capacity lines held before dropping
     * @param dropReport told, from the writer thread, how many lines were dropped when it catches up
     * @throws IOException if the file cannot be opened
     */
    public AsyncLogWriter(String target, int capacity, Consumer<String> dropReport) throws IOException {
        this(target, capacity, dropReport, PERIOD_MS);
    }

    /** With another batching period: tests make the writer fall idle between nearly every line. */
    AsyncLogWriter(String target, int capacity, Consumer<String> dropReport, long periodMillis) throws IOException {
        this.target = target;
        this.capacity = capacity;
        this.periodNanos = periodMillis * 1_000_000L;
        this.queue = new LineQueue(capacity);
        this.dropReport = dropReport;
        this.out = open(target);
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
     * Queues one line (a newline is added). Never blocks.
     *
     * @return false if it was dropped (queue full or writer closed)
     */
    public boolean offer(String line) {
        return queue(line);
    }

    /**
     * Queues one line already in bytes (a newline is added); the caller hands it over and no
     * longer touches it. Never blocks.
     *
     * @return false if it was dropped (queue full or writer closed)
     */
    public boolean offer(LogLine line) {
        return queue(line);
    }

    private boolean queue(Object line) {
        if (closed || !queue.offer(line)) {
            dropped.incrementAndGet();
            return false;
        }
        // After the link (see "Idle" in the class comment); a plain read first, so a busy
        // writer's producers do not all write the flag's cache line.
        if (asleep.get() && asleep.compareAndSet(true, false)) {
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

    /** Closes and reopens the file after the lines queued so far are written (log rotation). */
    public void reopen() {
        if (!closed) {
            queue.push(REOPEN);
            LockSupport.unpark(thread);
        }
    }

    /**
     * Waits (up to {@code millis}) until every line queued before this call is written and flushed.
     *
     * @return whether it finished in time
     */
    public boolean flush(long millis) {
        if (closed) {
            return true;
        }
        CountDownLatch done = new CountDownLatch(1);
        queue.push(done);
        LockSupport.unpark(thread);
        try {
            return done.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Writes what is queued, flushes and closes (within 5 s); later lines are dropped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.push(STOP);
        LockSupport.unpark(thread);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        try {
            boolean wrote = false;
            for (;;) {
                LineQueue.Node n = queue.takeAll();
                if (n == null) {
                    if (wrote) {
                        LockSupport.parkNanos(this, periodNanos); // lines coming: batch the next ones
                        wrote = false;
                    } else {
                        sleepUntilALine();
                    }
                    continue;
                }
                wrote = true;
                for (; n != null; n = n.next) {
                    Object o = n.item;
                    if (o instanceof LogLine l) {
                        write(l.array(), l.length());
                    } else if (o instanceof String s) {
                        byte[] b = s.getBytes(StandardCharsets.UTF_8);
                        write(b, b.length);
                    } else if (o instanceof CountDownLatch latch) {
                        flushStream();
                        latch.countDown();
                    } else if (o == REOPEN) {
                        flushStream();
                        // stdout and stderr are the process's own descriptors: closing them would
                        // lose every later line, and there is nothing to rotate.
                        if (!target.startsWith("/dev/std")) {
                            out.close();
                            out = open(target);
                        }
                    } else if (o == STOP) {
                        reportDrops();
                        flushStream();
                        if (!target.startsWith("/dev/std")) {
                            out.close();
                        }
                        return;
                    }
                }
                if (queue.isEmpty()) {
                    reportDrops();
                    flushStream();
                }
            }
        } catch (IOException e) {
            // The destination failed (disk full, file gone): say so once where an operator looks.
            System.err.println("LM1203 log writer for " + target + " stopped: " + e);
            closed = true;
        }
    }

    /** Parks without a timeout unless a line arrived after all (see "Idle" in the class comment). */
    private void sleepUntilALine() {
        asleep.set(true);
        if (queue.isEmpty()) {
            sleeps++;
            LockSupport.park(this);
        }
        asleep.set(false);
    }

    /** Buffers whole lines only: a line is never split over two write calls (see the class comment). */
    private void write(byte[] line, int length) throws IOException {
        int n = length + 1; // and its newline
        if (buffered + n > buffer.length) {
            flushStream();
        }
        if (n > buffer.length) {
            byte[] whole = Arrays.copyOf(line, n);
            whole[length] = '\n';
            out.write(whole);
        } else {
            System.arraycopy(line, 0, buffer, buffered, length);
            buffer[buffered + length] = '\n';
            buffered += n;
        }
    }

    private void flushStream() throws IOException {
        if (buffered > 0) {
            out.write(buffer, 0, buffered);
            buffered = 0;
        }
    }

    private void reportDrops() {
        // The count only grows, and the writer keeps what it has reported: a reader of
        // droppedTotal never sees lines in transit between two counters.
        long total = dropped.get();
        long n = total - reportedDrops;
        if (n > 0) {
            reportedDrops = total;
            dropReport.accept("LM1202 " + n + " log line(s) for " + target + " dropped: the writer could not keep up "
                    + "(queue of " + capacity + " lines full)");
        }
    }
}
