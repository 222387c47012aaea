/**
 * The server you run: {@code org.loommpm.cli.Main} (configuration file, logs, signals, static
 * files, child processes). On the class path it is loom-mpm.jar; on the module path
 * {@code java -p DIR -m org.loommpm.cli/org.loommpm.cli.Main}. Exports nothing.
 */
// "requires-automatic": Micrometer's Prometheus registry has no module descriptor.
@SuppressWarnings("requires-automatic")
module org.loommpm.cli {
    requires org.loommpm.core;
    requires org.loommpm.proxy;
    requires org.loommpm.observe;
    requires org.loommpm.compress;
    requires org.loommpm.auth;
    // No `requires org.loommpm.h2` or `org.loommpm.ws`: nothing of them is imported. On the module
    // path they are resolved by service binding (org.loommpm.core uses the provider interfaces
    // that they provide).
    requires micrometer.registry.prometheus;
    requires java.logging;
    requires java.management;
    // The heap reported at start (HeapSize): the JVM's options and where they came from.
    requires jdk.management;
    requires jdk.unsupported;

    // LoadApplication: the applications the jar serves, from its class path or their own jars.
    uses org.loommpm.api.Application;

    provides java.lang.System.LoggerFinder with org.loommpm.cli.logging.LoomLoggerFinder;
}
