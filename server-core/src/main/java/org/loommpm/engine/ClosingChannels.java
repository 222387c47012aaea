package org.loommpm.engine;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;

/**
 * The channels of a poller's finished connections, closed once a select has deregistered their
 * cancelled keys. A channel closed while its key is still registered costs the JDK a
 * {@code getsockopt} and a {@code shutdown} (it sends the FIN at once because the close itself
 * waits for the deregistration); closed after the deregistration it is a plain {@code close}.
 * Two lists: those finished since the last select ({@link #add}), and those whose keys the select
 * under way deregisters ({@link #beforeSelect} swaps them); the poller selects without sleeping
 * while any wait, so no FIN is late.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, every method on its thread.
 */
final class ClosingChannels {
    private ArrayList<SocketChannel> finished = new ArrayList<>();
    private ArrayList<SocketChannel> deregistering = new ArrayList<>();

    /** A finished connection's channel, its key cancelled just now. */
    void add(SocketChannel channel) {
        finished.add(channel);
    }

    /**
     * Called just before a select: what was finished until now is deregistered by it.
     *
     * @return whether any channel waits (the select must then not sleep)
     */
    boolean beforeSelect() {
        ArrayList<SocketChannel> cancelled = finished;
        finished = deregistering;
        deregistering = cancelled;
        return !cancelled.isEmpty();
    }

    /** Called after the select: closes the channels it deregistered. */
    void afterSelect() {
        for (int i = 0; i < deregistering.size(); i++) {
            close(deregistering.get(i));
        }
        deregistering.clear();
    }

    /** Closes every waiting channel; called once the selector itself is closed (its keys deregistered). */
    void closeAll() {
        afterSelect();
        beforeSelect();
        afterSelect();
    }

    static void close(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a socket that failed already: nothing more to release.
        }
    }
}
