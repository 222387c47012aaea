/**
 * A JUnit 5 extension for testing handlers against a real loom-mpm server:
 * {@link org.loommpm.testing.LoomServerTest}.
 */
module org.loommpm.testing {
    requires transitive org.loommpm.core;
    requires transitive org.junit.jupiter.api;
    requires transitive java.net.http;

    exports org.loommpm.testing;
}
