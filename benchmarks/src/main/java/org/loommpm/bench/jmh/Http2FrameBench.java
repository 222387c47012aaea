package org.loommpm.bench.jmh;

import com.twitter.hpack.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.loommpm.api.Headers;
import org.loommpm.http2.Http2BenchFixture;
import org.loommpm.http2.frame.FrameListener;
import org.loommpm.http2.frame.FrameReader;
import org.loommpm.http2.frame.FrameType;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.hpack.HpackCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * HTTP/2's frame layer on its own, both ways, as the server runs it: {@link FrameReader} (the
 * preface done, frames cut out of a read buffer and their layout checked) handing every field to
 * a listener that only consumes them, and {@code OutputBatch} serialising frames into the buffers
 * of one gathering write. What acts on frames (streams, windows, HPACK: {@code HpackBench}) and
 * the socket are left out. Each operation is one read or one batch:
 * <ul>
 *   <li>{@code parseRequests}: what an {@code h2load -m32} client sends per round: 32 HEADERS
 *       (END_STREAM, END_HEADERS; HPACK blocks as its encoder makes them on a used connection,
 *       a few bytes each) and a connection WINDOW_UPDATE, 33 frames;</li>
 *   <li>{@code parseUpload}: a request body of 64 DATA frames of 16 KiB (the default maximum
 *       frame size), 1 MiB;</li>
 *   <li>{@code serialiseResponses}: the 32 answers: the plaintext response head's HEADERS block
 *       (as {@link HpackCodec} encodes it on a used connection) and a 13-byte DATA frame with
 *       END_STREAM each, then the gathered buffers taken and the batch reset, as after the
 *       socket write; 64 frames;</li>
 *   <li>{@code serialiseDownload}: a 1 MiB body as 64 DATA frames of 16 KiB (referenced in the
 *       write, not copied) after its HEADERS.</li>
 * </ul>
 * {@code OutputBatch} and its streams are package-private: {@link Http2BenchFixture} holds them
 * (bare streams, no session, which is all the batch touches) and calls the batch one call deep.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class Http2FrameBench {
    private static final int STREAMS = 32;
    private static final int FRAME = FrameType.DEFAULT_MAX_FRAME_SIZE;
    private static final int UPLOAD_FRAMES = 64;

    private Consumer consumer;
    private FrameReader reader;
    private ByteBuffer requests;
    private ByteBuffer upload;
    private final Http2BenchFixture batch = new Http2BenchFixture(STREAMS, 3);
    private byte[] responseBlock;
    private final byte[] hello = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private final byte[] body = new byte[UPLOAD_FRAMES * FRAME];

    /** Consumes what a frame carries, so that nothing the reader computes is dead. */
    private static final class Consumer implements FrameListener {
        private final Blackhole bh;
        /** Frames read (the setup's check). */
        int frames;

        Consumer(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public void data(int sid, byte[] a, int off, int len, int flowLength, boolean end) {
            bh.consume(sid + off + len + flowLength);
            bh.consume(end);
        }

        @Override
        public void headers(int sid, byte[] a, int off, int len, int dependency, boolean end, boolean endHeaders) {
            bh.consume(sid + off + len + dependency);
            bh.consume(end & endHeaders);
        }

        @Override
        public void continuation(int sid, byte[] a, int off, int len, boolean endHeaders) {
            bh.consume(sid + off + len);
        }

        @Override
        public void priority(int sid, int dependency) {
            bh.consume(sid + dependency);
        }

        @Override
        public void rstStream(int sid, int code) {
            bh.consume(sid + code);
        }

        @Override
        public void settings(byte[] a, int off, int len, boolean preface) {
            bh.consume(off + len);
        }

        @Override
        public void settingsAck() {
            bh.consume(1);
        }

        @Override
        public void ping(byte[] a, int off, boolean ack) {
            bh.consume(off);
        }

        @Override
        public void goAway(int lastStreamId, int code) {
            bh.consume(lastStreamId + code);
        }

        @Override
        public void windowUpdate(int sid, int increment) {
            bh.consume(sid + increment);
        }

        @Override
        public void streamError(Http2Error e) {
            throw new IllegalStateException(e);
        }

        @Override
        public void frameCompleted() {
            frames++;
        }
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        consumer = new Consumer(bh);
        reader = new FrameReader(consumer, FRAME);
        reader.read(ByteBuffer.wrap(opening()));

        // The client's frames, serialised by the server's own frame writer.
        Http2BenchFixture client = new Http2BenchFixture(0, 1);
        Encoder encoder = new Encoder(4096);
        block(encoder); // stream 1's block: the literal one that fills the table, sent before this round
        for (int i = 0; i < STREAMS; i++) {
            byte[] block = block(encoder);
            client.headerBlock(3 + 2 * i, block, block.length, true, FRAME);
        }
        client.windowUpdate(0, FRAME);
        requests = ByteBuffer.wrap(wire(client));

        byte[] chunk = new byte[FRAME];
        for (int i = 0; i < UPLOAD_FRAMES; i++) {
            client.header(FRAME, FrameType.DATA, i == UPLOAD_FRAMES - 1 ? FrameType.FLAG_END_STREAM : 0, 1);
            client.copy(chunk, 0, FRAME);
        }
        upload = ByteBuffer.wrap(wire(client));

        if (!verify(requests, STREAMS + 1) || !verify(upload, UPLOAD_FRAMES)) {
            throw new IllegalStateException("the setup's frames are not what the benchmark says");
        }
        HpackCodec server = new HpackCodec(8192, 4096);
        Headers head = new Headers().add("Content-Type", "text/plain").add("Content-Length", "13")
                .add("Date", "Mon, 23 Nov 2026 03:30:00 GMT");
        server.encode(200, head);
        HpackCodec.Encoded again = server.encode(200, head);
        responseBlock = Arrays.copyOf(again.array(), again.size());
    }

    /** Whether {@code frames} holds exactly {@code expected} whole frames, consumed by one read. */
    private boolean verify(ByteBuffer frames, int expected) throws Http2Error {
        int before = consumer.frames;
        frames.clear();
        reader.read(frames);
        return !frames.hasRemaining() && consumer.frames - before == expected;
    }

    private static byte[] opening() {
        Http2BenchFixture client = new Http2BenchFixture(0, 1);
        byte[] preface = FrameReader.preface();
        client.copy(preface, 0, preface.length);
        client.settings();
        return wire(client);
    }

    /** What a batch gathered, as one array (and the batch emptied). */
    private static byte[] wire(Http2BenchFixture b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer x : b.gather()) {
            out.write(x.array(), x.arrayOffset() + x.position(), x.remaining());
        }
        b.discard();
        return out.toByteArray();
    }

    /** A request block as h2load's encoder sends it for {@code /plaintext}. */
    private static byte[] block(Encoder e) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[][] fields = {{":method", "GET"}, {":path", "/plaintext"}, {":scheme", "http"},
            {":authority", "127.0.0.1:8080"}, {"accept", "*/*"}, {"accept-encoding", "gzip, deflate"},
            {"user-agent", "h2load nghttp2/1.52.0"}};
        for (String[] f : fields) {
            e.encodeHeader(out, f[0].getBytes(StandardCharsets.US_ASCII), f[1].getBytes(StandardCharsets.US_ASCII),
                    false);
        }
        return out.toByteArray();
    }

    @Benchmark
    public boolean parseRequests() throws Http2Error {
        requests.clear();
        return reader.read(requests);
    }

    @Benchmark
    public boolean parseUpload() throws Http2Error {
        upload.clear();
        return reader.read(upload);
    }

    @Benchmark
    public ByteBuffer[] serialiseResponses() {
        for (int i = 0; i < STREAMS; i++) {
            batch.headerBlock(batch.streamId(i), responseBlock, responseBlock.length, false, FRAME);
            batch.data(i, hello, 0, hello.length, true);
        }
        ByteBuffer[] gathered = batch.gather();
        batch.discard();
        return gathered;
    }

    @Benchmark
    public ByteBuffer[] serialiseDownload() {
        batch.headerBlock(batch.streamId(0), responseBlock, responseBlock.length, false, FRAME);
        for (int off = 0; off < body.length; off += FRAME) {
            batch.data(0, body, off, FRAME, off + FRAME == body.length);
        }
        ByteBuffer[] gathered = batch.gather();
        batch.discard();
        return gathered;
    }
}
