package org.loommpm.tls;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/** TLS handshakes by outcome, server-wide: registered when the first generation with a TLS listener starts. */
final class TlsCounters {
    private final LongAdder completed;
    private final LongAdder failed;
    private final LongAdder plaintext;

    private TlsCounters(ProtocolCounters registry) {
        String handshakes = "loom.tls.handshakes";
        String description = "TLS handshakes by outcome (completed, failed, plaintext: an HTTP request on a TLS port)";
        completed = registry.counter(handshakes, description, "outcome", "completed");
        failed = registry.counter(handshakes, description, "outcome", "failed");
        plaintext = registry.counter(handshakes, description, "outcome", "plaintext");
    }

    /** {@return the server's TLS counts, registered on the first call} */
    static TlsCounters of(ProtocolCounters registry) {
        return registry.group(TlsCounters.class, TlsCounters::new);
    }

    /** A handshake completed. */
    void handshakeCompleted() {
        completed.increment();
    }

    /** A handshake failed (bad ClientHello, alert, peer gone mid-handshake). */
    void handshakeFailed() {
        failed.increment();
    }

    /** A plaintext HTTP request arrived on a TLS port (answered 400). */
    void plaintextRejected() {
        plaintext.increment();
    }
}
