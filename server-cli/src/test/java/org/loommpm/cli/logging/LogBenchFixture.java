package org.loommpm.cli.logging;

/**
 * Benchmark fixture, not API: what the JMH benchmarks (module benchmarks; org.loommpm.cli exports
 * no package) need of the logging package beyond its public classes.
 */
public final class LogBenchFixture {
    private LogBenchFixture() {
    }

    /** Empties {@code line} for reuse, keeping its buffer. */
    public static void reset(LogLine line) {
        line.truncate(0);
    }
}
