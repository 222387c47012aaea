package org.loommpm.bench.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.loommpm.config.ServerConfig;
import org.loommpm.http1.Http1BenchFixture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The HTTP/1.1 response writer up to the socket: a new {@code Http1Response} per request (as the
 * connection loop creates one), the handler's header(s), {@code encodeHead} and the small body
 * appended to the head, which is what {@code send(byte[])} hands to one socket write. The first
 * three are {@link Http1BenchFixture#encodeHead} ({@code encodeHead} is package-private); the
 * connection has no socket, so the write itself is not measured. {@code headers=1} is the
 * plaintext answer; {@code headers=6} adds the fields a typical API response sets.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ResponseHeadBench {
    static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    @Param({"1", "6"})
    public int headers;

    private static final String[] PLAIN = {"Content-Type", "text/plain"};
    private static final String[] API = {"Content-Type", "text/plain", "Cache-Control", "no-store",
        "Vary", "Accept-Encoding", "X-Request-Id", "4f1c2a9e-8b7d-4c5f-9a1b-2c3d4e5f6a7b",
        "ETag", "\"5f2b-1a2b3c4d\"", "Last-Modified", "Sun, 22 Nov 2026 16:00:00 GMT"};

    private Http1BenchFixture fixture;
    private String[] fields;

    @Setup
    public void setUp() throws IOException {
        byte[] get = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        fixture = new Http1BenchFixture(ServerConfig.builder().build(), get);
        fields = headers > 1 ? API : PLAIN;
    }

    @Benchmark
    public ByteBuffer encode() {
        ByteBuffer b = fixture.encodeHead(fields, HELLO.length);
        return b.put(HELLO);
    }
}
