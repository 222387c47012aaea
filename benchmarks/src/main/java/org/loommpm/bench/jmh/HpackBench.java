package org.loommpm.bench.jmh;

import com.twitter.hpack.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.loommpm.api.Headers;
import org.loommpm.config.Http2Settings;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.http2.hpack.HpackCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * HPACK as a connection's frame loop runs it ({@link HpackCodec}, over {@code com.twitter:hpack}):
 * decoding the header block of the 20-field browser request of {@link Http1ParseBench} in its
 * HTTP/2 form (pseudo-fields, lower-case names, no connection fields), and encoding a typical
 * response head. {@code decodeFirst}: the block a client sends first on a connection (every
 * field a literal, most Huffman-coded, each added to the table), decoded by a new connection's
 * codec (made outside the measured call); {@code decodeRepeat}: the same request sent again on
 * the connection, which the client's encoder turns into table references. Encoding runs on one
 * codec, as a connection's responses do (after the first, the repeated fields are indexed). Run
 * with {@code -prof gc} for allocations per block.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class HpackBench {
    private static final String[][] REQUEST = {
        {":method", "GET"}, {":scheme", "https"}, {":authority", "www.example.com"},
        {":path", "/search?q=loom+mpm&source=hp"},
        {"sec-ch-ua", "\"Chromium\";v=\"130\", \"Google Chrome\";v=\"130\", \"Not?A_Brand\";v=\"99\""},
        {"sec-ch-ua-mobile", "?0"}, {"sec-ch-ua-platform", "\"Linux\""}, {"upgrade-insecure-requests", "1"},
        {"user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0"
                + " Safari/537.36"},
        {"accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
                + "application/signed-exchange;v=b3;q=0.7"},
        {"sec-fetch-site", "same-origin"}, {"sec-fetch-mode", "navigate"}, {"sec-fetch-user", "?1"},
        {"sec-fetch-dest", "document"}, {"referer", "https://www.example.com/"},
        {"accept-encoding", "gzip, deflate, br, zstd"}, {"accept-language", "en-US,en;q=0.9,de;q=0.8"},
        {"cookie", "session=4f1c2a9e8b7d6c5f; theme=dark; _ga=GA1.1.123456789.1732269000"},
        {"cache-control", "max-age=0"}, {"if-none-match", "\"5f2b-1a2b3c4d\""},
        {"if-modified-since", "Sun, 22 Nov 2026 16:00:00 GMT"}, {"priority", "u=0, i"},
    };

    private byte[] first;
    private byte[] repeat;
    private HpackCodec primed;
    private HpackCodec responses;
    private Headers response;

    @Setup
    public void setUp() throws IOException {
        Encoder client = new Encoder(4096);
        first = encode(client);
        repeat = encode(client);
        primed = newCodec();
        primed.decode(first, first.length, false);
        responses = newCodec();
        response = new Headers().add("Content-Type", "text/html; charset=UTF-8").add("Content-Length", "5123")
                .add("Date", "Mon, 23 Nov 2026 02:40:00 GMT").add("Server", "loom-mpm")
                .add("Cache-Control", "private, max-age=0").add("ETag", "\"1403-660e727bd0961\"")
                .add("Vary", "Accept-Encoding");
    }

    private static byte[] encode(Encoder client) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String[] f : REQUEST) {
            client.encodeHeader(out, f[0].getBytes(StandardCharsets.US_ASCII), f[1].getBytes(StandardCharsets.US_ASCII),
                    false);
        }
        return out.toByteArray();
    }

    private static HpackCodec newCodec() {
        return new HpackCodec(Http2Settings.DEFAULTS.maxHeaderListSize(), Http2Settings.DEFAULTS.headerTableSize());
    }

    /** A new connection's codec, made before each call. */
    @State(Scope.Thread)
    public static class Fresh {
        HpackCodec codec;

        @Setup(Level.Invocation)
        public void open() {
            codec = newCodec();
        }
    }

    /** Decodes the request's block as the first on a connection. */
    @Benchmark
    public FieldBlock decodeFirst(Fresh fresh) throws IOException {
        return fresh.codec.decode(first, first.length, false);
    }

    /** Decodes the request's block sent again on the connection. */
    @Benchmark
    public FieldBlock decodeRepeat() throws IOException {
        return primed.decode(repeat, repeat.length, false);
    }

    /** Encodes a 7-field response head with {@code :status 200}. */
    @Benchmark
    public int encode() throws IOException {
        return responses.encode(200, response).size();
    }
}
