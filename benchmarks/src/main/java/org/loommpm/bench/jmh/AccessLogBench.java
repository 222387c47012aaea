package org.loommpm.bench.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.logging.AccessLogFormat;
import org.loommpm.cli.logging.AsyncLogWriter;
import org.loommpm.cli.logging.LogBenchFixture;
import org.loommpm.cli.logging.LogLine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The access log's cost on the worker, per request: one {@code common} line for wrk's
 * {@code GET /hello.txt} answered 200 with 13 bytes ({@code format}, into a reused buffer), and
 * the same line formatted into the buffers of a writer whose thread drains them to
 * {@code /dev/null} meanwhile ({@code formatAndOffer}: what {@code AccessLogFilter} adds to a
 * request). The request and response are fixed values
 * here; in the server they are the exchange's own objects.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class AccessLogBench {
    private final AccessLogFormat common = AccessLogFormat.compile("%h %l %u %t \"%r\" %>s %b");
    private final Request request = new FixedRequest();
    private final Response response = new FixedResponse();
    private AsyncLogWriter writer;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        writer = new AsyncLogWriter("/dev/null", AsyncLogWriter.DEFAULT_CAPACITY, message -> { });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        writer.close();
        if (writer.droppedTotal() > 0) { // a dropped line costs less than a written one: say so
            System.err.println("formatAndOffer: the writer dropped " + writer.droppedTotal() + " lines");
        }
    }

    private final LogLine line = new LogLine(128);

    private AccessLogFormat.Exchange exchange() {
        return new AccessLogFormat.Exchange(request, response, 200, System.currentTimeMillis(), 0, null);
    }

    @Benchmark
    public LogLine format() {
        LogBenchFixture.reset(line);
        common.format(line, exchange());
        return line;
    }

    @Benchmark
    public boolean formatAndOffer() {
        return writer.offer(FixedRequest.REMOTE.hashCode(), common, exchange());
    }

    /** wrk's request as the server parsed it; one address object per connection, as there. */
    private static final class FixedRequest implements Request {
        private static final InetSocketAddress REMOTE = new InetSocketAddress("127.0.0.1", 41234);
        private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 8080);
        private final Headers headers = new Headers().add("Host", "127.0.0.1:8080");

        public String method() { return "GET"; }
        public String rawTarget() { return "/hello.txt"; }
        public String path() { return "/hello.txt"; }
        public String encodedPath() { return "/hello.txt"; }
        public String query() { return null; }
        public Map<String, List<String>> queryParams() { return Map.of(); }
        public String pathParam(String name) { return null; }
        public String protocol() { return "HTTP/1.1"; }
        public Headers headers() { return headers; }
        public long contentLength() { return -1; }
        public InputStream body() { return InputStream.nullInputStream(); }
        public byte[] bodyBytes() { return new byte[0]; }
        public String bodyString() { return ""; }
        public InetSocketAddress remoteAddress() { return REMOTE; }
        public InetSocketAddress localAddress() { return LOCAL; }
        public boolean isSecure() { return false; }
        private final Map<String, Object> attributes = new java.util.HashMap<>();
        public Map<String, Object> attributes() { return attributes; }
    }

    /** A sent 200 with a 13-byte body. */
    private static final class FixedResponse implements Response {
        private final Headers headers = new Headers().add("Content-Type", "text/plain");

        public Response status(int status) { return this; }
        public int status() { return 200; }
        public Response header(String name, String value) { return this; }
        public Headers headers() { return headers; }
        public void send(byte[] body) { }
        public OutputStream outputStream() { return OutputStream.nullOutputStream(); }
        public void sendFile(Path file) { }
        public boolean isCommitted() { return true; }
        public long bytesSent() { return 180; }
        public long bodyBytesSent() { return 13; }
    }
}
