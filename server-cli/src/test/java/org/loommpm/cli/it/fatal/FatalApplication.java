package org.loommpm.cli.it.fatal;

import java.nio.charset.StandardCharsets;
import org.loommpm.api.Application;
import org.loommpm.api.Router;

/**
 * The application {@code FailStopIT} loads into the jar (packed into a jar of its own by the
 * test): routes that fail the way the fail-stop policy is about, through the jar's ordinary
 * {@code LoadApplication}, so the jar itself has no test-only switch. {@code /fatal/oom} throws
 * an {@link OutOfMemoryError} on the worker serving it; {@code /fatal/thread} answers, and a
 * thread of the application's own then ends on one.
 */
public final class FatalApplication implements Application {
    /** The service loader's constructor. */
    public FatalApplication() {
    }

    @Override
    public void routes(Router router, Context context) {
        router.get("/fatal/oom", (req, res) -> {
            throw new OutOfMemoryError("test: thrown by FatalApplication's handler");
        });
        router.get("/fatal/thread", (req, res) -> {
            res.send("started\n".getBytes(StandardCharsets.US_ASCII));
            Thread.ofPlatform().name("fatal-app-thread").start(() -> {
                throw new OutOfMemoryError("test: thrown by FatalApplication's own thread");
            });
        });
    }
}
