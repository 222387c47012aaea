package org.loommpm.engine;

import java.nio.ByteBuffer;
import org.loommpm.spi.ConnectionBuffers;

/**
 * What a connection needs only while it is being served: its read and write buffers and the
 * protocol's parser state. The Java form of httpd's per-transaction pool.
 *
 * <p>A context is attached by the poller when it claims a connection and detached by the
 * worker when the connection goes idle; idle keep-alive connections hold none. Contexts are
 * recycled through the poller's {@link RecycleList} (workers push, the poller pops), so the
 * buffers are allocated once per context, not once per request. Owned by whoever owns the
 * connection it is attached to.
 */
public final class ConnectionContext extends RecycleList.Node<ConnectionContext> implements ConnectionBuffers {
    private final ByteBuffer standardIn;
    private final ByteBuffer out;
    private ByteBuffer in;
    private Object protocolState;

    ConnectionContext(int bufferSize) {
        this.standardIn = ByteBuffer.allocate(bufferSize);
        this.in = standardIn;
        this.out = ByteBuffer.allocate(bufferSize);
        clear();
    }

    /**
     * Bytes read from the socket and not yet consumed. Kept in read mode between uses
     * (position = first unconsumed byte, limit = end of data).
     */
    public ByteBuffer in() {
        return in;
    }

    /**
     * Replaces the read buffer with a larger one holding the same bytes (a request head longer
     * than the standard buffer, within the Limit* directives). The context goes back to its
     * standard buffer when it is recycled.
     *
     * @return the read buffer now in use, in read mode
     */
    public ByteBuffer growIn(int capacity) {
        if (capacity > in.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocate(capacity);
            bigger.put(in.duplicate().position(0).limit(in.limit())).flip().position(in.position());
            in = bigger;
        }
        return in;
    }

    /** Staging for response bytes, in write mode (position = end of staged bytes). */
    public ByteBuffer out() {
        return out;
    }

    /**
     * The protocol's reusable per-context state (parser, scanner) if it is a {@code type}, else
     * {@code null} (none yet, or another protocol's: the caller then stores its own).
     */
    public <S> S protocolState(Class<S> type) {
        return type.isInstance(protocolState) ? type.cast(protocolState) : null;
    }

    /** Stores the protocol's reusable state; it is recycled with the context. */
    public void protocolState(Object state) {
        this.protocolState = state;
    }

    /** Empties both buffers for the next connection (parser state resets itself). */
    void clear() {
        in = standardIn;
        in.clear().limit(0);
        out.clear();
    }
}
