package org.loommpm.http1;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.Connection;
import org.loommpm.engine.EngineBenchFixture;
import org.loommpm.http.RequestHead;

/**
 * Benchmark fixture, not API: the HTTP/1.1 response writer up to the socket, for the JMH
 * benchmarks (module benchmarks; this package is exported to no application). One fixture is one
 * socket-less connection that has parsed one request; {@link #encodeHead} is what the connection
 * loop does per response before its write.
 */
public final class Http1BenchFixture {
    /** No pipelined request waiting: nothing is batched. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Connection connection;
    private final Http1State state;
    private final RequestHead request;
    private final ByteBuffer staging = ByteBuffer.allocate(0);

    /** A connection under {@code config} that has read {@code requestHead} (a whole head). */
    public Http1BenchFixture(ServerConfig config, byte[] requestHead) throws IOException {
        connection = EngineBenchFixture.unconnectedConnection(config);
        state = new Http1State(config);
        state.scanner.reset();
        int end = state.scanner.scan(requestHead, 0, requestHead.length);
        request = state.parser.parse(requestHead, state.scanner.requestLineStart(), end);
    }

    /**
     * A new response to the request (as the connection loop creates one), the handler's fields
     * ({@code fields}: name, value, name, value …) and its head encoded for a body of
     * {@code contentLength} bytes, with room for that body after it.
     */
    public ByteBuffer encodeHead(String[] fields, int contentLength) {
        Http1Response res = new Http1Response(connection, state, staging, EMPTY, request, "loom-mpm", true,
                new org.loommpm.http.StreamingLimits(0, 0, 0, true));
        for (int i = 0; i < fields.length; i += 2) {
            res.header(fields[i], fields[i + 1]);
        }
        return res.encodeHead(contentLength, false, contentLength);
    }
}
