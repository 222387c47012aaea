package org.loommpm.bench.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.loommpm.config.ServerConfig;
import org.loommpm.http1.ChunkedInputStream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decoding a 64 KiB chunked request body with {@link ChunkedInputStream}, read into an 8 KiB
 * buffer as a handler would, for small (256 B) and large (8 KiB) chunks. The source is an
 * unsynchronized in-memory stream shaped like the engine's {@code ConnectionInputStream}
 * ({@link java.io.ByteArrayInputStream} would add a monitor per framing byte). The
 * {@code bytes} counter gives decoded bytes/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class ChunkedBodyBench {
    static final int BODY = 64 * 1024;

    @Param({"256", "8192"})
    public int chunkSize;

    private byte[] wire;
    private final Source source = new Source();
    private final byte[] sink = new byte[8192];

    /** Decoded bytes, reported by JMH as bytes/s. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    /** A resettable, unsynchronized stream over {@link #wire}. */
    private final class Source extends InputStream {
        int pos;

        @Override
        public int read() {
            return pos < wire.length ? wire[pos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= wire.length) {
                return -1;
            }
            int n = Math.min(len, wire.length - pos);
            System.arraycopy(wire, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    @Setup
    public void setUp() {
        StringBuilder sb = new StringBuilder();
        String chunk = "x".repeat(chunkSize);
        for (int sent = 0; sent < BODY; sent += chunkSize) {
            sb.append(Integer.toHexString(chunkSize)).append("\r\n").append(chunk).append("\r\n");
        }
        sb.append("0\r\n\r\n");
        wire = sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Benchmark
    public long decode(Bytes counter) throws IOException {
        source.pos = 0;
        ChunkedInputStream in = new ChunkedInputStream(source, ServerConfig.DEFAULT_LIMIT_REQUEST_BODY,
                ServerConfig.DEFAULT_LIMIT_REQUEST_FIELDS, ServerConfig.DEFAULT_LIMIT_REQUEST_FIELD_SIZE);
        long total = 0;
        for (int n; (n = in.read(sink, 0, sink.length)) >= 0; ) {
            total += n;
        }
        counter.bytes += total;
        return total;
    }
}
