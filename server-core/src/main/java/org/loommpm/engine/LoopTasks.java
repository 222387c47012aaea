package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.loommpm.spi.EventLoop;

/**
 * The poller's {@link EventLoop} side ({@link EventLoop#current()} hands it out), a poller-confined
 * helper: channels that non-blocking code registered on the poller's selector
 * ({@link EventLoop.Watcher} attachments), and tasks any thread queues for the poller to run.
 *
 * <p><b>Contract of {@link #tasks}</b> (multi-producer, single-consumer): any thread offers
 * ({@link #execute}); only the poller polls ({@link #run}), at most {@link #MAX_PER_TURN} per
 * loop iteration so a producer faster than the poller cannot starve its connections. A task
 * offered after the poller exited is refused ({@code execute} returns false), and one that slips
 * in as it exits is dropped with the loop: the watchers it would touch are ended by then.
 */
final class LoopTasks implements EventLoop {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** Tasks run per loop iteration; the rest wait for the next (after a selectNow). */
    private static final int MAX_PER_TURN = 1024;

    private final Poller poller;
    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

    LoopTasks(Poller poller, Selector selector) {
        this.poller = poller;
        this.selector = selector;
    }

    @Override
    public SelectionKey register(SelectableChannel channel, int ops, EventLoop.Watcher watcher) throws IOException {
        if (poller.hasExited() || !selector.isOpen()) {
            throw new IOException("the event loop has ended");
        }
        return channel.register(selector, ops, watcher);
    }

    @Override
    public boolean execute(Runnable task) {
        if (poller.hasExited()) {
            return false;
        }
        tasks.offer(task);
        poller.wakeIfSleeping();
        return true;
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == poller.thread();
    }

    @Override
    public boolean hasEnded() {
        return poller.hasExited();
    }

    boolean isEmpty() {
        return tasks.isEmpty();
    }

    /** Runs the queued tasks, at most {@link #MAX_PER_TURN}. Poller thread only. */
    void run() {
        Runnable t;
        for (int n = 0; n < MAX_PER_TURN && (t = tasks.poll()) != null; n++) {
            try {
                t.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "LM0107 a task on the event loop failed", e);
            }
        }
    }

    /** A registered channel is ready. Poller thread only. */
    void ready(EventLoop.Watcher w, SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        try {
            w.ready(key);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "LM0107 a watcher on the event loop failed; its channel is dropped", e);
            key.cancel();
        }
    }

    /** The loop ends: every watcher still registered is told, once. Poller thread only. */
    void loopEnded() {
        tasks.clear();
        if (!selector.isOpen()) {
            return;
        }
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof EventLoop.Watcher w) {
                try {
                    w.loopEnded();
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "LM0107 a watcher on the event loop failed as the loop ended", e);
                }
            }
        }
    }
}
