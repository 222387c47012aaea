package org.loommpm.http;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.loommpm.api.Headers;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.http.syntax.StatusReasons;
import org.loommpm.spi.ChildServices;

/**
 * A suspended exchange, the part HTTP/1.1 and HTTP/2 share: the phases of the answer, its
 * deadline, the graceful-stop rule and the counts. Each protocol subclass says how a head, a
 * piece of body and the end are queued (HTTP/1.1: on the connection's outbound queue; HTTP/2: as
 * frames on the session's queue), all without blocking.
 *
 * <p><b>Phases</b> (guarded by {@link #lock}; the only lock, never held across I/O, since
 * queueing does not block): {@code WAITING} (nothing sent) -> {@code STREAMING} (head sent,
 * body pieces following) -> {@code DONE}; or {@code WAITING -> DONE} for a whole response.
 * {@code DONE} also when the client goes away, and on {@link #abort} from either phase (the
 * answer is cut off: {@link #queueAbort}). {@link #end} runs once, after the phase became
 * DONE, outside the lock.
 *
 * <p><b>Threads.</b> The handle's methods: any thread. {@link #tick}: the {@link StreamingClock}
 * thread (deadline, graceful stop, event-stream heartbeat). {@link #clientGone}: whichever thread
 * saw the connection or stream end. The status and header fields of the suspended response are
 * written under the lock only (its handler has handed it over: {@link ResponseState#complete}).
 */
public abstract class SuspendedExchange implements SuspendedResponse {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http");
    private static final byte[] EMPTY = new byte[0];

    private enum Phase { WAITING, STREAMING, DONE }

    /** The response handed over; its status and fields are written under {@link #lock}. */
    protected final ResponseState response;
    /** Guards the phase and the response's fields; held only while queueing (never blocks). */
    protected final ReentrantLock lock = new ReentrantLock();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final ChildServices services;
    private final ExchangeCounters counters;
    /** Absolute deadline ({@link System#nanoTime()}), 0 = none. */
    private final long deadlineNanos;
    /** How long after a graceful stop began a suspended exchange is answered 503. */
    private final long stopGraceNanos;
    private Phase phase = Phase.WAITING;
    private volatile Runnable onTimeout;
    private volatile boolean timedOut;
    /** When the clock first saw the server stopping (clock thread only), 0 before. */
    private long stopSeenNanos;
    /** Whether the answer was sent (false: the client went away first). Written before {@link #ended}. */
    private volatile boolean answered;
    /** Whether this is an event stream (counted apart). */
    private final boolean isEventStream;
    /** Set for an event stream: heartbeats, and the end at once on a graceful stop. */
    private volatile EventStreamResponse eventStream;

    /**
     * @param deadlineNanos absolute deadline, 0 for none
     * @param gracefulShutdownNanos the server's GracefulShutdownTimeout: the 503 goes out a
     *        little before it ends (at most 1 s before), while the connection is still there
     * @param isEventStream whether this will carry an event stream (counted apart)
     */
    protected SuspendedExchange(ResponseState response, ChildServices services, long deadlineNanos,
                                long gracefulShutdownNanos, boolean isEventStream) {
        this.response = response;
        this.isEventStream = isEventStream;
        this.services = services;
        this.counters = ExchangeCounters.of(services.counters());
        this.deadlineNanos = deadlineNanos;
        this.stopGraceNanos = Math.max(0, gracefulShutdownNanos - Math.min(1_000_000_000L, gracefulShutdownNanos / 2));
        counters.started(isEventStream);
    }

    // ---- what each protocol provides; called under the lock, never blocking ----

    /** Queues a whole response (head and body with a Content-Length) whatever the budget. */
    protected abstract void queueWhole(byte[] body) throws IOException;

    /** Queues the head of a streamed response whatever the budget. */
    protected abstract void queueHead() throws IOException;

    /** Queues an interim response (checked, copied) whatever the budget; {@code false} where the client takes none. */
    protected abstract boolean queueInterim(int status, Headers fields) throws IOException;

    /**
     * Queues a piece of a streamed body if the budget allows; whether it did. Throws, queueing
     * nothing, for a piece beyond a Content-Length set.
     */
    protected abstract boolean offerPiece(byte[] piece) throws IOException;

    /** Queues the end of a streamed body whatever the budget. */
    protected abstract void queueEnd() throws IOException;

    /**
     * Ends the response without its end, so the client sees it cut off (HTTP/1.1: the connection
     * closed after what is queued; HTTP/2: the stream reset). Under the lock.
     */
    protected abstract void queueAbort() throws IOException;

    /** When a piece would fit again. */
    protected abstract CompletableFuture<Void> protocolWhenWritable();

    /**
     * The exchange has ended (once, outside the lock): the protocol goes on with the connection or
     * stream (HTTP/1.1: a signal brings the connection back to a worker).
     *
     * @param answered whether the answer was queued (false: the client went away)
     */
    protected abstract void afterEnd(boolean answered);

    /**
     * {@return the Content-Length the producer set before its first write, or -1 for none (or
     * one that is not a plain decimal): the length a streamed body is then held to} Under the lock.
     */
    protected final long declaredLength() {
        String v = response.headers.first("Content-Length");
        if (v == null) {
            return -1;
        }
        v = v.trim();
        if (v.isEmpty() || v.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    // ---- the protocol's side ----

    /**
     * Registers the exchange with the clock once the protocol has let go of it (the handler
     * returned). An exchange already ended (answered from the handler's own thread) is taken out
     * again: {@link #end} completes {@link #ended} before it removes, so one of the two sees the other.
     */
    public void start() {
        StreamingClock.INSTANCE.add(this);
        if (isDone()) {
            StreamingClock.INSTANCE.remove(this);
        }
    }

    /** The connection or stream ended before the answer (or while it streamed). Any thread. */
    public void clientGone() {
        endUnanswered(false);
    }

    /**
     * Ends the exchange unanswered, once: the client gone, or {@link #abort} ({@code cutOff}: the
     * protocol cuts what was sent off). Any thread.
     */
    private void endUnanswered(boolean cutOff) {
        lock.lock();
        try {
            if (phase == Phase.DONE) {
                return;
            }
            phase = Phase.DONE;
            if (cutOff) {
                queueAbort();
            }
        } catch (IOException e) {
            // The connection or stream is already gone: the client sees the cut anyway.
        } finally {
            lock.unlock();
        }
        end(false);
    }

    /**
     * Ends the exchange with {@code status} if nothing was sent yet (a short text body), else by
     * cutting the streamed body off, as {@link #abort} does: its producer did not finish it, and
     * a client must not take what it got for a whole body. For a handler that failed after
     * suspending, the deadline, a stop. Any thread.
     */
    public void fail(int status) {
        finish(() -> {
            response.headers.clear();
            response.status = status;
            response.headers.set("Content-Type", "text/plain; charset=UTF-8");
            return (StatusReasons.reason(status) + "\n").getBytes(StandardCharsets.UTF_8);
        }, true);
    }

    /**
     * The one way the answer ends ({@link #fail}, {@link #complete}): under the lock and only once,
     * queues the whole response whose body {@code whole} prepares (called only while nothing was
     * sent yet, so it may still set status and headers), else ends the streamed body, or cuts it
     * off ({@code cutStreamed}: the exchange then ends unanswered). A connection found gone while
     * queueing ends the exchange as {@link #connectionGone} does. Any thread.
     */
    private void finish(Supplier<byte[]> whole, boolean cutStreamed) {
        lock.lock();
        boolean cut = false;
        try {
            if (phase == Phase.DONE) {
                return;
            }
            if (phase == Phase.WAITING) {
                queueWhole(whole.get());
            } else if (cutStreamed) {
                cut = true;
                queueAbort();
            } else {
                queueEnd();
            }
            phase = Phase.DONE;
        } catch (IOException e) {
            connectionGone(); // unlocks
            return;
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        }
        end(!cut);
    }

    /** Whether the answer went out (false after {@link #clientGone}). Meaningful once done. */
    public boolean answered() {
        return answered;
    }

    void eventStream(EventStreamResponse stream) {
        this.eventStream = stream;
    }

    /**
     * The clock's look, about ten times a second: a graceful stop ends an event stream at once
     * and answers a suspended exchange 503 shortly before GracefulShutdownTimeout; the deadline
     * runs {@link #onTimeout} (on a virtual thread) then 503; an event stream idle for
     * EventStreamHeartbeat gets a comment. Clock thread.
     */
    void tick(long now) {
        if (isDone()) {
            return;
        }
        EventStreamResponse es = eventStream;
        if (services.isStopping()) {
            if (stopSeenNanos == 0) {
                stopSeenNanos = now;
            }
            if (es != null) {
                LOG.log(Level.DEBUG, "LM1604 event stream ended: the server is stopping");
                es.close();
                return;
            }
            if (now - stopSeenNanos >= stopGraceNanos) {
                LOG.log(Level.DEBUG, "LM1603 suspended exchange answered 503: the server is stopping");
                fail(503);
                return;
            }
        }
        if (deadlineNanos != 0 && now - deadlineNanos >= 0 && !timedOut) {
            timedOut = true;
            counters.timedOut();
            Runnable action = onTimeout;
            LOG.log(Level.DEBUG, "LM1601 suspended exchange timed out{0}", action == null ? ": 503" : "");
            if (action == null) {
                fail(503);
            } else {
                Thread.ofVirtual().name("loom-suspend-timeout").start(() -> {
                    if (isDone()) {
                        return; // answered, or the client left, since the clock looked: nothing timed out
                    }
                    try {
                        action.run();
                    } catch (IllegalStateException e) {
                        if (isDone()) {
                            // The action lost a race with an answer from another thread (its status()
                            // came after the head went out): the exchange ended well, nothing to report.
                            LOG.log(Level.DEBUG, "LM1606 a suspended exchange's onTimeout action came after "
                                    + "its answer: {0}", e.getMessage());
                        } else {
                            LOG.log(Level.ERROR, "LM1602 a suspended exchange's onTimeout action failed", e);
                        }
                    } catch (RuntimeException | Error e) {
                        LOG.log(Level.ERROR, "LM1602 a suspended exchange's onTimeout action failed", e);
                    } finally {
                        fail(503);
                    }
                });
            }
            return;
        }
        if (es != null) {
            es.heartbeat(now);
        }
    }

    private void end(boolean sent) {
        answered = sent;
        counters.ended(isEventStream);
        ended.complete(null);
        StreamingClock.INSTANCE.remove(this);
        afterEnd(sent);
    }

    // ---- the handle (any thread) ----

    @Override
    public SuspendedResponse status(int status) {
        ResponseState.checkFinalStatus(status);
        lock.lock();
        try {
            checkNotSent();
            response.status = status;
        } finally {
            lock.unlock();
        }
        return this;
    }

    @Override
    public SuspendedResponse header(String name, String value) {
        return field(name, value, true);
    }

    @Override
    public SuspendedResponse addHeader(String name, String value) {
        return field(name, value, false);
    }

    private SuspendedResponse field(String name, String value, boolean replace) {
        HeaderValidation.check(name, value);
        lock.lock();
        try {
            checkNotSent();
            if (replace) {
                response.headers.set(name, value);
            } else {
                response.headers.add(name, value);
            }
        } finally {
            lock.unlock();
        }
        return this;
    }

    @Override
    public boolean sendInterim(int status, Headers fields) throws IOException {
        Headers checked = HeaderValidation.interim(status, fields);
        return queueing(() -> {
            checkNotSent();
            return queueInterim(status, checked);
        });
    }

    /** What {@link #queueing} runs under the lock. */
    private interface Queueing {
        boolean run() throws IOException;
    }

    /**
     * Runs {@code q} under the lock on an exchange not yet ended; a connection it finds closed
     * ends the exchange (the failure is rethrown).
     */
    private boolean queueing(Queueing q) throws IOException {
        lock.lock();
        try {
            checkOpen();
            return q.run();
        } catch (ClosedChannelException e) {
            connectionGone(); // unlocks
            throw e;
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        }
    }

    private void checkNotSent() {
        if (phase != Phase.WAITING) {
            throw new IllegalStateException("response head already sent");
        }
    }

    @Override
    public void send(byte[] body) throws IOException {
        queueing(() -> {
            checkNotSent();
            // No Content-Type is made up for bytes, as Response.send(byte[]) makes none: a proxied
            // answer without one (left to the client's sniffing) must reach the client without one.
            queueWhole(body);
            phase = Phase.DONE;
            return true;
        });
        end(true);
    }

    /**
     * Queueing found the connection closed before its end was reported here: the exchange ends
     * now (unless it already had). Called with the lock held; releases it.
     */
    private void connectionGone() {
        boolean wasOpen = phase != Phase.DONE;
        phase = Phase.DONE;
        lock.unlock();
        if (wasOpen) {
            end(false);
        }
    }

    @Override
    public void send(String body) throws IOException {
        lock.lock();
        try {
            if (phase == Phase.WAITING && !response.headers.contains("Content-Type")) {
                response.headers.set("Content-Type", "text/plain; charset=UTF-8");
            }
        } finally {
            lock.unlock();
        }
        send(body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean write(byte[] chunk) throws IOException {
        return queueing(() -> {
            if (phase == Phase.WAITING) {
                queueHead();
                phase = Phase.STREAMING;
            }
            return chunk.length == 0 || offerPiece(chunk);
        });
    }

    /** Sends the head now (an event stream's, before the handler returns). */
    void commit() throws IOException {
        write(EMPTY);
    }

    private void checkOpen() throws IOException {
        if (phase == Phase.DONE) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        if (isDone()) {
            return CompletableFuture.failedFuture(new ClosedChannelException());
        }
        return protocolWhenWritable();
    }

    @Override
    public void complete() {
        finish(() -> EMPTY, false);
    }

    @Override
    public void abort() {
        endUnanswered(true);
    }

    @Override
    public SuspendedResponse onTimeout(Runnable action) {
        this.onTimeout = action;
        return this;
    }

    @Override
    public boolean isDone() {
        return ended.isDone();
    }

    @Override
    public CompletableFuture<Void> ended() {
        return ended;
    }
}
