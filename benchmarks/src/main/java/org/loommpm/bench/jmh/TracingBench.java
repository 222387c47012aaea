package org.loommpm.bench.jmh;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Router;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.tracing.ObservedHandler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What tracing adds to a request's handler path: {@link ExchangeRunner#run} (what HTTP/1.1 and
 * HTTP/2 call per request) with a {@link Router} whose template has a variable and a handler
 * sending 13 bytes, into an in-memory exchange (no socket, so the figure is the path's own CPU).
 * {@code tracing}:
 * <ul>
 *   <li>{@code off}: no observation registry (the default): the builder serves the router
 *       itself, as before tracing existed; {@code ObservationRegistry.NOOP} is the same object
 *       path (the wrap returns the handler);</li>
 *   <li>{@code idle}: a registry with no handler (an application that will register its
 *       tracer later): per request Micrometer's no-op check;</li>
 *   <li>{@code on}: a registry with one handler that accepts every observation and does
 *       nothing: the instrumentation's own cost (context, scope, both key-value sets, the
 *       request wrapper) without a tracer's.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class TracingBench {
    static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    @Param({"off", "idle", "on"})
    public String tracing;

    private ExchangeRunner runner;
    private BenchRequest request;
    private BenchExchange exchange;

    @Setup
    public void setUp() {
        Handler router = new Router().get("/users/{id}", (req, res) -> {
            res.header("Content-Type", "text/plain");
            res.send(HELLO);
        });
        Handler app = switch (tracing) {
            case "off" -> router;
            case "idle" -> ObservedHandler.wrap(ObservationRegistry.create(), router);
            case "on" -> {
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(new AcceptAll());
                yield ObservedHandler.wrap(registry, router);
            }
            default -> throw new IllegalArgumentException(tracing);
        };
        runner = new ExchangeRunner(app, null);
        request = new BenchRequest();
        exchange = new BenchExchange();
    }

    @Benchmark
    public int request() throws IOException {
        exchange.reset();
        runner.run(request, exchange);
        return exchange.status;
    }

    /** An observation handler that takes every context and does nothing. */
    static final class AcceptAll implements ObservationHandler<Observation.Context> {
        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    /** {@code GET /users/42 HTTP/1.1} with a Host, as parsed. */
    static final class BenchRequest implements Request {
        private final Headers headers = new Headers().add("Host", "localhost:8080");
        private final InetSocketAddress remote = new InetSocketAddress("127.0.0.1", 40000);
        private final InetSocketAddress local = new InetSocketAddress("127.0.0.1", 8080);

        @Override public String method() { return "GET"; }
        @Override public String rawTarget() { return "/users/42"; }
        @Override public String path() { return "/users/42"; }
        @Override public String encodedPath() { return "/users/42"; }
        @Override public String query() { return null; }
        @Override public Map<String, List<String>> queryParams() { return Map.of(); }
        @Override public String pathParam(String name) { return null; }
        @Override public String protocol() { return "HTTP/1.1"; }
        @Override public Headers headers() { return headers; }
        @Override public long contentLength() { return 0; }
        @Override public InputStream body() { return InputStream.nullInputStream(); }
        @Override public byte[] bodyBytes() { return new byte[0]; }
        @Override public String bodyString() { return ""; }
        @Override public InetSocketAddress remoteAddress() { return remote; }
        @Override public InetSocketAddress localAddress() { return local; }
        @Override public boolean isSecure() { return false; }
        private final Map<String, Object> attributes = new java.util.HashMap<>();
        @Override public Map<String, Object> attributes() { return attributes; }
    }

    /** A response kept in memory; {@link #reset} makes it fresh for the next request. */
    static final class BenchExchange implements ExchangeRunner.Exchange {
        private final Headers headers = new Headers();
        int status;
        boolean committed;
        long sent;

        void reset() {
            status = 200;
            committed = false;
            sent = 0;
            headers.clear();
        }

        @Override public BenchExchange status(int s) { status = s; return this; }
        @Override public int status() { return status; }
        @Override public BenchExchange header(String name, String value) { headers.add(name, value); return this; }
        @Override public Headers headers() { return headers; }
        @Override public void send(byte[] body) { committed = true; sent += body.length; }
        @Override public OutputStream outputStream() { throw new UnsupportedOperationException(); }
        @Override public void sendFile(Path file) { throw new UnsupportedOperationException(); }
        @Override public boolean isCommitted() { return committed; }
        @Override public long bytesSent() { return sent; }
        @Override public void finish() { committed = true; }
        @Override public boolean clientGone(Exception e) { return false; }
        @Override public boolean fail(ExchangeRunner.Failure failure, int s, Throwable cause) {
            status = s;
            return true;
        }
    }
}
