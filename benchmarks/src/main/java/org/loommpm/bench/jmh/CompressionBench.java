package org.loommpm.bench.jmh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.loommpm.bench.JsonSample;
import org.loommpm.compress.CompressBenchFixture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What compressing a 100 KB JSON response costs the worker: gzip (the JDK's {@code Deflater},
 * zlib) against brotli (brotli4j, native) at the levels one would choose, through the same
 * streams {@code CompressionFilter} uses. The coded size of each is printed at the end of its
 * trial ({@code bytes out}); docs/benchmarks.md puts both in one table.
 *
 * <p>Besides JMH's wall-clock time, each iteration prints the benchmark thread's own CPU time per
 * operation ({@code cpu ns/op}, from {@code ThreadMXBean}; about a microsecond of its own per
 * call, nothing next to milliseconds of compression): on a shared, overloaded machine the wall
 * clock mostly measures the other processes, the thread's CPU time much less so.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class CompressionBench {
    /** coding-level: gzip 1..9 (DeflateCompressionLevel), br 0..11 (BrotliCompressionQuality). */
    @Param({"gzip-1", "gzip-6", "gzip-9", "br-1", "br-4", "br-5", "br-6", "br-9"})
    public String codingLevel;

    private final byte[] json = JsonSample.json(100 * 1024);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(128 * 1024);
    private final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    private String coding;
    private int level;
    private long cpuNanos;
    private long ops;

    @Setup(Level.Trial)
    public void setUp() {
        int dash = codingLevel.indexOf('-');
        coding = codingLevel.substring(0, dash);
        level = Integer.parseInt(codingLevel.substring(dash + 1));
        if (coding.equals("br") && !CompressBenchFixture.brotliAvailable()) {
            throw new IllegalStateException("brotli4j's native library did not load: no br figures");
        }
    }

    @Setup(Level.Iteration)
    public void resetCpu() {
        cpuNanos = 0;
        ops = 0;
    }

    @TearDown(Level.Iteration)
    public void reportCpu() {
        System.out.println("cpu ns/op " + codingLevel + ": " + (ops == 0 ? 0 : cpuNanos / ops));
    }

    @TearDown(Level.Trial)
    public void report() {
        System.out.println("bytes out " + codingLevel + ": " + out.size() + " of " + json.length);
    }

    @Benchmark
    public ByteArrayOutputStream encode() throws IOException {
        long t0 = threads.getCurrentThreadCpuTime();
        CompressBenchFixture.encode(coding, level, json, out);
        cpuNanos += threads.getCurrentThreadCpuTime() - t0;
        ops++;
        return out;
    }
}
