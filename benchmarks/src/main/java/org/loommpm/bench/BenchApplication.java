package org.loommpm.bench;

import org.loommpm.api.Application;
import org.loommpm.api.Router;

/**
 * The benchmark's routes as an application {@code loom-mpm.jar} loads
 * ({@code LoadApplication bench org.loommpm.bench.BenchApplication benchmarks/target/loom-mpm-bench.jar},
 * see {@code conf/loom-mpm.conf}): the same handlers {@link LoomBench} serves embedded, so the
 * jar (its configuration, its {@code Require} rules, its process children) can be measured
 * serving them, e.g. the idle WebSockets of {@code benchmarks/idle-ws-children.sh}.
 */
public final class BenchApplication implements Application {
    /** The service loader's constructor. */
    public BenchApplication() {
    }

    @Override
    public void routes(Router router, Context context) {
        LoomBench.routes(router);
    }
}
