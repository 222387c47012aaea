/**
 * On-the-fly compression for loom-mpm: {@link org.loommpm.compress.CompressionFilter} (gzip, and
 * brotli when brotli4j is on the class path or module path), a filter like any other.
 */
// "requires-automatic": brotli4j has no module descriptor.
@SuppressWarnings("requires-automatic")
module org.loommpm.compress {
    requires transitive org.loommpm.core;
    // Brotli, when the application (or the jar) has it.
    requires static com.aayushatharva.brotli4j;

    exports org.loommpm.compress;
}
