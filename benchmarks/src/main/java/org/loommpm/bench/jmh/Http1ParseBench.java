package org.loommpm.bench.jmh;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.loommpm.config.ServerConfig;
import org.loommpm.http1.HeadScanner;
import org.loommpm.http.RequestHead;
import org.loommpm.http1.RequestHeadParser;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The HTTP/1.1 request-head path a worker runs per request: {@link HeadScanner} finds the end of
 * the head, {@link RequestHeadParser} validates it and builds the {@link RequestHead}, both with
 * the default limits. {@code small} is what wrk sends; {@code browser} is a 20-field navigation
 * request as a current Chrome sends it. The {@code bytes} counter gives bytes/s; run with
 * {@code -prof gc} for allocations per request.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class Http1ParseBench {
    static final String SMALL = "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:18080\r\n\r\n";

    static final String BROWSER = """
            GET /search?q=loom+mpm&source=hp HTTP/1.1\r
            Host: www.example.com\r
            Connection: keep-alive\r
            sec-ch-ua: "Chromium";v="130", "Google Chrome";v="130", "Not?A_Brand";v="99"\r
            sec-ch-ua-mobile: ?0\r
            sec-ch-ua-platform: "Linux"\r
            Upgrade-Insecure-Requests: 1\r
            User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36\r
            Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7\r
            Sec-Fetch-Site: same-origin\r
            Sec-Fetch-Mode: navigate\r
            Sec-Fetch-User: ?1\r
            Sec-Fetch-Dest: document\r
            Referer: https://www.example.com/\r
            Accept-Encoding: gzip, deflate, br, zstd\r
            Accept-Language: en-US,en;q=0.9,de;q=0.8\r
            Cookie: session=4f1c2a9e8b7d6c5f; theme=dark; _ga=GA1.1.123456789.1732269000\r
            Cache-Control: max-age=0\r
            If-None-Match: "5f2b-1a2b3c4d"\r
            If-Modified-Since: Sun, 22 Nov 2026 16:00:00 GMT\r
            Priority: u=0, i\r
            \r
            """;

    @Param({"small", "browser"})
    public String request;

    private byte[] buf;
    private HeadScanner scanner;
    private RequestHeadParser parser;

    /** Bytes parsed, reported by JMH as bytes/s. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup
    public void setUp() {
        buf = (request.equals("small") ? SMALL : BROWSER).getBytes(StandardCharsets.US_ASCII);
        scanner = new HeadScanner(ServerConfig.DEFAULT_LIMIT_REQUEST_LINE, ServerConfig.DEFAULT_LIMIT_REQUEST_FIELDS,
                ServerConfig.DEFAULT_LIMIT_REQUEST_FIELD_SIZE);
        parser = new RequestHeadParser(ServerConfig.DEFAULT_LIMIT_REQUEST_LINE, ServerConfig.DEFAULT_LIMIT_REQUEST_FIELDS,
                ServerConfig.DEFAULT_LIMIT_REQUEST_FIELD_SIZE, ServerConfig.DEFAULT_LIMIT_REQUEST_BODY);
    }

    @Benchmark
    public RequestHead scanAndParse(Bytes counter) {
        scanner.reset();
        int end = scanner.scan(buf, 0, buf.length);
        counter.bytes += buf.length;
        return parser.parse(buf, scanner.requestLineStart(), end);
    }
}
