/**
 * HTTP/2 for loom-mpm: found by {@code org.loommpm.core} through {@link java.util.ServiceLoader}
 * (module path: the {@code provides} below; class path: META-INF/services). Exports nothing.
 */
// "module": the name ends in a digit (h2, as the artifact); "requires-automatic": hpack.
@SuppressWarnings({"module", "requires-automatic"})
module org.loommpm.h2 {
    requires org.loommpm.core;
    // com.twitter:hpack has no module descriptor: its automatic name comes from the file name.
    requires hpack;

    provides org.loommpm.protocol.Http2ProtocolProvider with org.loommpm.http2.Http2Provider;
}
