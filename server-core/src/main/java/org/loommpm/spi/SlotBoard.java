package org.loommpm.spi;

import java.net.InetSocketAddress;

/**
 * What a protocol writes into its child's scoreboard (mod_status's worker slots): the state
 * letter of the slot its task holds, and the request that slot serves. The worker holding the
 * slot is its only writer; the status page reads it from any thread.
 */
public interface SlotBoard {
    /** {@code _}: slot free, waiting for work. */
    byte WAITING = '_';
    /**
     * {@code S}: starting: the slot is taken and its virtual thread started, but the thread has
     * not run yet (it waits for a carrier thread: many {@code S} mean the CPUs are the limit).
     */
    byte STARTING = 'S';
    /** {@code R}: reading a request (head or body). */
    byte READING = 'R';
    /** {@code W}: running the handler / writing the response. */
    byte WRITING = 'W';
    /** {@code K}: finishing a keep-alive exchange (checking for a pipelined request). */
    byte KEEPALIVE = 'K';
    /** {@code C}: closing the connection. */
    byte CLOSING = 'C';
    /** {@code L}: logging the exchange (the access log line is formatted after the response). */
    byte LOGGING = 'L';

    /** What the status page shows of the request a slot is serving. */
    interface RequestInfo {
        /** {@return the method token} */
        String method();

        /** {@return the decoded path, without the query} */
        String path();

        /** {@return the target host (Host header or absolute-form authority), or {@code null}} */
        String host();
    }

    /**
     * Sets {@code slot}'s state letter. The worker holding the slot.
     *
     * @param slot the slot
     * @param state the state letter (mod_status's: {@code _}, {@code R}, {@code W}, ...)
     */
    void set(int slot, byte state);

    /**
     * Shows the request {@code slot} now serves. The worker holding the slot.
     *
     * @param slot the slot
     * @param request the request line's parts
     * @param client the client's address
     * @param startNanos when the request started, on {@link System#nanoTime()}'s clock
     */
    void requestStarted(int slot, RequestInfo request, InetSocketAddress client, long startNanos);

    /**
     * Counts one completed request and the bytes its response put on the wire. The worker holding the slot.
     *
     * @param slot the slot
     * @param bytesSent the response's bytes on the wire
     */
    void requestDone(int slot, long bytesSent);
}
