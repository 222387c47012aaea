/**
 * The server you run: {@code org.loommpm.cli.Main} (configuration file, logs, signals, static
 * files, child processes). On the class path it is loom-mpm.jar; on the module path
 * {@code java -p DIR -m org.loommpm.cli/org.loommpm.cli.Main}. Exports nothing.
 */
// "requires-automatic": Micrometer's Prometheus registry has no module descriptor.
@SuppressWarnings("requires-automatic")
module org.loommpm.cli {
    requires org.loommpm.core;
    // No `requires org.loommpm.h2`: nothing of it is imported. On the module path it is resolved
    // by service binding (org.loommpm.core uses the provider interface that it provides).
    requires micrometer.registry.prometheus;
    requires java.logging;
    requires java.management;
    requires jdk.unsupported;

    // LoadApplication: the applications the jar serves, from its class path or their own jars.
    uses org.loommpm.api.Application;

    provides java.lang.System.LoggerFinder with org.loommpm.cli.logging.LoomLoggerFinder;
}
