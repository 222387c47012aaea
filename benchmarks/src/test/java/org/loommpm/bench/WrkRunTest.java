package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A wrk run as run.sh records it, with the server's and the load tool's CPU lines. */
class WrkRunTest {
    private static final String RUN = """
            # wrk '-t1' '-c50' '-d5s' '--latency' 'http://127.0.0.1:18080/plaintext'
            Running 5s test @ http://127.0.0.1:18080/plaintext
              Latency Distribution
                 50%  412.00us
                 99%    2.10ms
              250000 requests in 5.00s, 30.00MB read
            Requests/sec:  50000.00
            # client_cpu_s=4.60 wall_s=5.00
            # server_cpu_s=2.50
            # server_jit_s=0.25 settle_s=3
            """;

    @Test
    void serverCpuPerRequestAndClientShare() {
        WrkRun r = WrkRun.parse(RUN);
        assertEquals(50000.0, r.rps());
        assertEquals(10.0, r.cpuMicrosPerRequest(), 1e-9);
        assertEquals(1.0, r.jitMicrosPerRequest(), 1e-9);
        assertEquals(92.0, r.clientCpuPercent(), 1e-9);
        assertEquals(0.412, r.p50(), 1e-9);
        assertEquals(2.1, r.p99(), 1e-9);
    }

    @Test
    void zeroPercentileIsMissingNotALatency() {
        WrkRun r = WrkRun.parse(RUN.replace("2.10ms", "0.00us"));
        assertEquals(Double.NaN, r.p99());
        assertEquals(0.412, r.p50(), 1e-9);
    }

    @Test
    void missingClientAndJitLinesAreNaN() {
        WrkRun r = WrkRun.parse("Requests/sec: 1.0\n1 requests in 1.00s\n");
        assertEquals(Double.NaN, r.clientCpuPercent());
        assertEquals(Double.NaN, r.jitMicrosPerRequest());
    }
}
