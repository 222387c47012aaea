package org.loommpm.http1;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.BenchFixtures;
import org.loommpm.engine.Connection;
import org.loommpm.http.RequestHead;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The HTTP/1.1 response writer up to the socket: a new {@link Http1Response} per request (as the
 * connection loop creates one), the handler's header(s), {@code encodeHead} and the small body
 * appended to the head, which is what {@code send(byte[])} hands to one socket write. It sits in
 * server-core's package (in the benchmarks jar) because {@code encodeHead} is package-private;
 * the connection has no socket, so the write itself is not measured. {@code headers=1} is the
 * plaintext answer; {@code headers=6} adds the fields a typical API response sets.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ResponseHeadBench {
    static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    @Param({"1", "6"})
    public int headers;

    private Connection connection;
    private Http1State state;
    private RequestHead request;
    private final ByteBuffer staging = ByteBuffer.allocate(0);
    /** No pipelined request waiting: nothing is batched. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    @Setup
    public void setUp() throws IOException {
        ServerConfig config = ServerConfig.builder().build();
        connection = BenchFixtures.unconnectedConnection(config);
        state = new Http1State(config);
        byte[] get = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        state.scanner.reset();
        int end = state.scanner.scan(get, 0, get.length);
        request = state.parser.parse(get, state.scanner.requestLineStart(), end);
    }

    @Benchmark
    public ByteBuffer encode() {
        Http1Response res = new Http1Response(connection, state, staging, EMPTY, request, "loom-mpm", true);
        res.header("Content-Type", "text/plain");
        if (headers > 1) {
            res.header("Cache-Control", "no-store");
            res.header("Vary", "Accept-Encoding");
            res.header("X-Request-Id", "4f1c2a9e-8b7d-4c5f-9a1b-2c3d4e5f6a7b");
            res.header("ETag", "\"5f2b-1a2b3c4d\"");
            res.header("Last-Modified", "Sun, 22 Nov 2026 16:00:00 GMT");
        }
        ByteBuffer b = res.encodeHead(HELLO.length, false, HELLO.length);
        return b.put(HELLO);
    }
}
