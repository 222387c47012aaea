package org.loommpm.spi;

import java.nio.ByteBuffer;

/**
 * A connection's buffers while it is being served: recycled between connections by the engine,
 * attached only while a worker owns the connection (an idle keep-alive connection holds none).
 * The owner only.
 */
public interface ConnectionBuffers {
    /** {@return bytes read and not yet consumed, in read mode (the protocol compacts and flips it)} */
    ByteBuffer in();

    /**
     * Replaces {@link #in()} by a larger buffer holding the same unread bytes (a head or a frame
     * larger than the standard buffer); the next connection gets the standard size again.
     *
     * @param capacity the new buffer's capacity in bytes
     * @return the new input buffer
     */
    ByteBuffer growIn(int capacity);

    /** {@return staging for response bytes, in write mode (position = end of staged bytes)} */
    ByteBuffer out();

    /**
     * The protocol's reusable per-context state (parser, scanner) if it is a {@code type}, else
     * {@code null} (none yet, or another protocol's: the caller then stores its own).
     *
     * @param <S> the state's type
     * @param type the state's class
     * @return the state, or {@code null}
     */
    <S> S protocolState(Class<S> type);

    /**
     * Stores the protocol's reusable state; it is recycled with the buffers.
     *
     * @param state the state
     */
    void protocolState(Object state);
}
