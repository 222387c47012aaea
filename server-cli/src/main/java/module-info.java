/**
 * The server you run: {@code org.loommpm.cli.Main} (configuration file, logs, signals, static
 * files, child processes). On the class path it is loom-mpm.jar; on the module path
 * {@code java -p DIR -m org.loommpm.cli/org.loommpm.cli.Main}. Exports nothing.
 */
// "requires-automatic": Micrometer's Prometheus registry has no module descriptor.
@SuppressWarnings("requires-automatic")
module org.loommpm.cli {
    requires org.loommpm.core;
    // HTTP/2 is found through the service (ServiceLoader); nothing of server-h2 is imported. It
    // is required so that `-m org.loommpm.cli` resolves it without --add-modules.
    requires org.loommpm.h2;
    requires micrometer.registry.prometheus;
    requires java.logging;
    requires java.management;
    requires jdk.unsupported;

    provides java.lang.System.LoggerFinder with org.loommpm.cli.logging.LoomLoggerFinder;
}
