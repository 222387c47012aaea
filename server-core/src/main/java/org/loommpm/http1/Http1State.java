package org.loommpm.http1;

import java.nio.ByteBuffer;
import org.loommpm.config.ServerConfig;

/**
 * The HTTP/1.1 codec state kept in a connection context and recycled with it: the resumable head
 * scanner, the parser, the scratch buffer response heads are encoded into, and when the current
 * head began arriving (its deadline counts from there). Owned by whoever owns the context.
 */
final class Http1State {
    final HeadScanner scanner;
    final RequestHeadParser parser;
    ByteBuffer head = ByteBuffer.allocate(1024);
    long headStartNanos;

    Http1State(ServerConfig cfg) {
        scanner = new HeadScanner(cfg.limitRequestLine(), cfg.limitRequestFields(), cfg.limitRequestFieldSize());
        parser = new RequestHeadParser(cfg.limitRequestLine(), cfg.limitRequestFields(),
                cfg.limitRequestFieldSize(), cfg.limitRequestBody());
    }

    /** The head scratch buffer, cleared, with room for at least {@code bytes}. */
    ByteBuffer headBuffer(int bytes) {
        if (head.capacity() < bytes) {
            head = ByteBuffer.allocate(Math.max(bytes, head.capacity() * 2));
        }
        return head.clear();
    }
}
