package org.loommpm.spi;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

/**
 * A poller as an event loop for code that runs on it: a non-blocking handler
 * ({@code api.InvocationType#NON_BLOCKING}) that talks to another socket (a proxy's backend)
 * registers that socket on the poller that called it, and is called back there when it is
 * ready, with no thread of its own and no hand-off. {@link #current()} finds the loop of the
 * calling thread.
 *
 * <p><b>Threads.</b> {@link #register} and everything on the returned key: the loop's thread
 * only (the handler's own call, or a {@link Watcher} callback, or a task). {@link #execute}: any
 * thread; the task then runs on the loop's thread, in the order given, after the ready keys of
 * the loop's current turn. A channel registered here is the loop's: it is read, written and
 * closed on the loop's thread (a close from another thread is allowed, as on any channel, and
 * is then seen by the loop as an I/O failure).
 */
public interface EventLoop {
    /**
     * The event loop the calling thread runs: its poller when called from one (a non-blocking
     * handler served inline, a {@link Watcher}, a task), else {@code null} (a worker's virtual
     * thread, any other thread).
     *
     * @return the calling thread's loop, or {@code null}
     */
    static EventLoop current() {
        return CurrentLoop.OF_THREAD.get();
    }

    /**
     * Makes {@code loop} the calling thread's loop for the rest of its life: the engine's poller
     * thread calls it once, first thing. Nothing else should.
     *
     * @param loop the loop this thread runs
     * @throws IllegalStateException if this thread already runs a loop
     */
    static void bindCurrentThread(EventLoop loop) {
        if (CurrentLoop.OF_THREAD.get() != null) {
            throw new IllegalStateException("this thread already runs an event loop");
        }
        CurrentLoop.OF_THREAD.set(loop);
    }

    /**
     * Registers {@code channel} (non-blocking) on this loop's selector for {@code ops}; the
     * watcher is called on this loop's thread when one is ready. Loop thread only.
     *
     * @param channel a channel in non-blocking mode
     * @param ops the interest set, e.g. {@link SelectionKey#OP_READ}
     * @param watcher what to call
     * @return the key, whose interest set the watcher changes (loop thread only)
     * @throws IOException the channel is closed, or the loop has ended
     */
    SelectionKey register(SelectableChannel channel, int ops, Watcher watcher) throws IOException;

    /**
     * Runs {@code task} on this loop's thread soon (a wake-up if it sleeps). Any thread. A task
     * that throws is logged (LM0107) and the loop goes on.
     *
     * @param task what to run; it must not block, as a non-blocking handler must not
     * @return {@code false} if the loop has ended (the task will never run)
     */
    boolean execute(Runnable task);

    /** {@return whether the calling thread is this loop's} */
    boolean inLoop();

    /** {@return whether this loop has ended (its child stopped): nothing registers or runs on it any more} Any thread. */
    boolean hasEnded();

    /** Called on the loop's thread for a channel registered with {@link #register}. */
    interface Watcher {
        /**
         * The channel is ready for some of its interest set ({@link SelectionKey#readyOps()}).
         * Must not block; an exception is logged (LM0107) and the key cancelled.
         *
         * @param key the channel's key
         */
        void ready(SelectionKey key);

        /**
         * The loop ends (its child stops) with this channel still registered: close it and let
         * go of what depends on it. On the loop's thread, once.
         */
        void loopEnded();
    }
}
