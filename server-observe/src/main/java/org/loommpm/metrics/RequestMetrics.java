package org.loommpm.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.loommpm.spi.ExchangeObserver;

/**
 * Request meters, fed by the protocol layer once per completed exchange:
 * <ul>
 *   <li>{@code loom.http.requests}: a Timer tagged {@code protocol} ({@code HTTP/1.0},
 *       {@code HTTP/1.1}), {@code method} (the standard methods, anything else {@code OTHER})
 *       and {@code status} (the class: {@code 1xx} to {@code 5xx}, else {@code other});</li>
 *   <li>{@code loom.http.received} / {@code loom.http.sent}: Counters of request and response
 *       bytes (base unit bytes) tagged {@code protocol}.</li>
 * </ul>
 * Tags are normalised to fixed sets so a client cannot create series by sending odd methods.
 *
 * <p><b>Cost.</b> Meters are created on first use and then found by array index (protocol x
 * method x status class), so an exchange costs three array reads and the meters' own updates:
 * no map lookup, no tag allocation. Histograms are off unless a {@code MeterFilter} on the
 * registry turns them on (see docs/observability.md).
 */
// Public for MetricsFeature (and the jar), which create it; "exports": its engine types are exported to
// loom-mpm's own modules only, so an application cannot use it (MetricsHandler is the API here).
@SuppressWarnings("exports")
public final class RequestMetrics implements ExchangeObserver {
    /** Timer name. */
    public static final String REQUESTS = "loom.http.requests";
    /** Request bytes counter name. */
    public static final String RECEIVED = "loom.http.received";
    /** Response bytes counter name. */
    public static final String SENT = "loom.http.sent";

    private static final List<String> PROTOCOLS = List.of("HTTP/1.0", "HTTP/1.1", "HTTP/2", "other");
    private static final List<String> METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE", "OTHER");
    private static final List<String> STATUS_CLASSES = List.of("other", "1xx", "2xx", "3xx", "4xx", "5xx");

    private final MeterRegistry registry;
    private final AtomicReferenceArray<Timer> timers =
            new AtomicReferenceArray<>(PROTOCOLS.size() * METHODS.size() * STATUS_CLASSES.size());
    private final AtomicReferenceArray<Counter> received = new AtomicReferenceArray<>(PROTOCOLS.size());
    private final AtomicReferenceArray<Counter> sent = new AtomicReferenceArray<>(PROTOCOLS.size());

    /**
     * The request meters, registered in {@code registry} as they are first needed.
     * @param registry where the meters are registered
     *
     */
    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void exchangeCompleted(String protocol, String method, int status, long bytesIn, long bytesOut,
                                  long nanos) {
        int p = protocolIndex(protocol);
        int m = methodIndex(method);
        int s = status >= 100 && status <= 599 ? status / 100 : 0;
        timer(p, m, s).record(nanos, TimeUnit.NANOSECONDS);
        counter(received, RECEIVED, "Request bytes read: heads and bodies as framed on the wire", p)
                .increment(bytesIn);
        counter(sent, SENT, "Response bytes written: status lines, headers and bodies", p).increment(bytesOut);
    }

    private Timer timer(int p, int m, int s) {
        int i = (p * METHODS.size() + m) * STATUS_CLASSES.size() + s;
        Timer t = timers.get(i);
        if (t == null) {
            // Two threads may both build it: the registry returns the same meter for the same id.
            t = Timer.builder(REQUESTS)
                    .description("Completed HTTP exchanges, from the first byte of the request head to the end of "
                            + "the response")
                    .tag("protocol", PROTOCOLS.get(p))
                    .tag("method", METHODS.get(m))
                    .tag("status", STATUS_CLASSES.get(s))
                    .register(registry);
            timers.set(i, t);
        }
        return t;
    }

    private Counter counter(AtomicReferenceArray<Counter> cache, String name, String description, int p) {
        Counter c = cache.get(p);
        if (c == null) {
            c = Counter.builder(name).description(description).baseUnit("bytes")
                    .tag("protocol", PROTOCOLS.get(p)).register(registry);
            cache.set(p, c);
        }
        return c;
    }

    private static int protocolIndex(String protocol) {
        return switch (protocol) {
            case "HTTP/1.0" -> 0;
            case "HTTP/1.1" -> 1;
            case "HTTP/2.0", "HTTP/2" -> 2; // request.protocol() says HTTP/2.0, as servlets do
            default -> 3;
        };
    }

    /** The method's tag index: one of the standard methods (case-sensitive, as on the wire), else OTHER. */
    static int methodIndex(String method) {
        return switch (method) {
            case "GET" -> 0;
            case "HEAD" -> 1;
            case "POST" -> 2;
            case "PUT" -> 3;
            case "DELETE" -> 4;
            case "PATCH" -> 5;
            case "OPTIONS" -> 6;
            case "CONNECT" -> 7;
            case "TRACE" -> 8;
            default -> 9;
        };
    }
}
