package org.loommpm.http1;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ProtocolConnection;

/**
 * The HTTP/1.1 codec state kept in a connection context and recycled with it: the resumable head
 * scanner, the parser, the scratch buffer response heads are encoded into, and when the current
 * head began arriving (its deadline counts from there), and the batch of responses to pipelined
 * requests not yet written. Owned by whoever owns the context; the batch is empty whenever the
 * connection is handed back.
 */
final class Http1State {
    final HeadScanner scanner;
    final RequestHeadParser parser;
    ByteBuffer head = ByteBuffer.allocate(1024);
    long headStartNanos;
    /**
     * The worker slot the connection's task holds: the one it was dispatched with, or the one a
     * body read took back after lending it ({@link ExchangeSlot}). Worker only.
     */
    int slot;
    /** The handler the inline path chose for the head it accepted (the route, found once). Poller only. */
    org.loommpm.api.Handler inlineHandler;
    /** Responses to pipelined requests waiting for one write; allocated on first use. */
    private ByteBuffer batch;
    private static final int BATCH_SIZE = 8192;

    Http1State(ServerConfig cfg) {
        scanner = new HeadScanner(cfg.limitRequestLine(), cfg.limitRequestFields(), cfg.limitRequestFieldSize());
        parser = new RequestHeadParser(cfg.limitRequestLine(), cfg.limitRequestFields(),
                cfg.limitRequestFieldSize(), cfg.limitRequestBody());
    }

    /**
     * Appends a response of {@code n} bytes to the batch if it fits.
     *
     * @return whether it was taken
     */
    boolean batch(ByteBuffer head, ByteBuffer body, int n) {
        if (batch == null) {
            if (n > BATCH_SIZE) {
                return false;
            }
            batch = ByteBuffer.allocate(BATCH_SIZE);
        }
        if (batch.remaining() < n) {
            return false;
        }
        batch.put(head);
        if (body != null) {
            batch.put(body);
        }
        return true;
    }

    /** Whether responses wait in the batch. */
    boolean hasBatch() {
        return batch != null && batch.position() > 0;
    }

    /**
     * Writes the batch out, parking while the socket is full.
     *
     * @return the bytes written
     */
    int flushBatch(ProtocolConnection c) throws IOException {
        if (batch == null || batch.position() == 0) {
            return 0;
        }
        int n = batch.flip().remaining();
        try {
            c.write(batch);
        } finally {
            batch.clear();
        }
        return n;
    }

    /** The bytes waiting in the batch. */
    int batchedBytes() {
        return batch == null ? 0 : batch.position();
    }

    /** Takes the last {@code n} bytes back out of the batch (a response replaced before it went out). */
    void unbatch(int n) {
        batch.position(batch.position() - n);
    }

    /** Drops a batch that can no longer be sent (the connection is being closed on an error). */
    void discardBatch() {
        if (batch != null) {
            batch.clear();
        }
    }

    /** The head scratch buffer, cleared, with room for at least {@code bytes}. */
    ByteBuffer headBuffer(int bytes) {
        if (head.capacity() < bytes) {
            head = ByteBuffer.allocate(Math.max(bytes, head.capacity() * 2));
        }
        return head.clear();
    }
}
