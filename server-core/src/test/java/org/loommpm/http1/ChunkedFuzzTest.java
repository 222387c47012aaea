package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.loommpm.api.HttpException;

/**
 * Fuzzes {@link ChunkedInputStream}, the chunked request-body decoder. Without {@code JAZZER_FUZZ}
 * it replays the seed corpora in {@code ChunkedFuzzTestInputs/} (docs/fuzzing.md).
 *
 * <p>{@link #decode}: arbitrary bytes as a body. The only failures are an {@link HttpException}
 * (400, 413, 431) or an {@link EOFException}; a body that ends never consumed a byte after its
 * last CRLF (the next pipelined request stays in the stream), decodes the same from exactly the
 * bytes it consumed, stays within LimitRequestBody and the trailer limits, and its re-encoding
 * decodes to the same body and trailers.
 *
 * <p>{@link #roundTrip}: a body cut into chunks with random sizes, extensions and trailers,
 * encoded as RFC 9112 §7.1 says, decodes to the same bytes and trailers.
 */
class ChunkedFuzzTest {
    private static final long LIMIT_BODY = 1 << 16;
    private static final int TRAILERS = 8;
    private static final int FIELD_SIZE = 128;
    private static final Set<Integer> STATUSES = Set.of(400, 413, 431);

    @FuzzTest(maxDuration = "10m")
    void decode(byte[] input) throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(input);
        Decoded first = decodeOrFail(raw, input.length % 7 + 1);
        if (first == null) {
            return;
        }
        int consumed = input.length - raw.available();
        assertTrue(first.body.length <= LIMIT_BODY, "body past LimitRequestBody");
        assertTrue(first.trailers.size() <= TRAILERS, "too many trailers kept");
        Decoded prefix = decodeOrFail(new ByteArrayInputStream(Arrays.copyOf(input, consumed)), 4096);
        assertTrue(prefix != null, "the consumed bytes alone do not decode");
        assertArrayEquals(first.body, prefix.body);
        assertEquals(first.trailers.toString(), prefix.trailers.toString());
        Decoded again = decodeOrFail(new ByteArrayInputStream(encode(first.body, first.trailers)), 4096);
        assertTrue(again != null, "a re-encoded body does not decode");
        assertArrayEquals(first.body, again.body);
        assertEquals(first.trailers.toString(), again.trailers.toString());
    }

    @FuzzTest(maxDuration = "10m")
    void roundTrip(FuzzedDataProvider data) throws IOException {
        byte[] body = data.consumeBytes(data.consumeInt(0, 8192));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int n = data.consumeInt(1, body.length - at);
            wire.writeBytes(Integer.toHexString(n).getBytes(StandardCharsets.US_ASCII));
            if (data.consumeBoolean()) {
                wire.writeBytes(";ext=\"v a\"".getBytes(StandardCharsets.US_ASCII));
            }
            wire.writeBytes(new byte[] {'\r', '\n'});
            wire.write(body, at, n);
            wire.writeBytes(new byte[] {'\r', '\n'});
            at += n;
        }
        wire.writeBytes("0\r\n".getBytes(StandardCharsets.US_ASCII));
        org.loommpm.api.Headers trailers = new org.loommpm.api.Headers();
        for (int i = data.consumeInt(0, TRAILERS); i > 0; i--) {
            trailers.add("x-t" + i, data.consumeAsciiString(20).replaceAll("[^!-~]", "v"));
        }
        trailers.forEach((k, v) -> wire.writeBytes((k + ": " + v + "\r\n").getBytes(StandardCharsets.US_ASCII)));
        wire.writeBytes("\r\nGET /next".getBytes(StandardCharsets.US_ASCII));
        ByteArrayInputStream raw = new ByteArrayInputStream(wire.toByteArray());
        Decoded d = decodeOrFail(raw, data.consumeInt(1, 600));
        assertTrue(d != null, "a well-formed chunked body was refused");
        assertArrayEquals(body, d.body);
        assertEquals(trailers.toString(), d.trailers.toString());
        assertArrayEquals("GET /next".getBytes(StandardCharsets.US_ASCII), raw.readAllBytes(), "read past the body");
    }

    /** Decodes to the end, {@code step} bytes per read (1: the single-byte read); null after a documented failure. */
    private static Decoded decodeOrFail(ByteArrayInputStream raw, int step) throws IOException {
        ChunkedInputStream in = new ChunkedInputStream(raw, LIMIT_BODY, TRAILERS, FIELD_SIZE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[step];
        try {
            while (true) {
                if (step == 1) {
                    int b = in.read();
                    if (b < 0) {
                        break;
                    }
                    out.write(b);
                } else {
                    int n = in.read(buf, 0, step);
                    if (n < 0) {
                        break;
                    }
                    assertTrue(n > 0, "read returned 0 for a non-empty buffer");
                    out.write(buf, 0, n);
                }
            }
        } catch (HttpException e) {
            assertTrue(STATUSES.contains(e.status()), "undocumented status " + e.status() + ": " + e.getMessage());
            return null;
        } catch (EOFException e) {
            return null;
        }
        return new Decoded(out.toByteArray(), in.trailers());
    }

    private static byte[] encode(byte[] body, org.loommpm.api.Headers trailers) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        if (body.length > 0) {
            wire.writeBytes((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            wire.writeBytes(body);
            wire.writeBytes(new byte[] {'\r', '\n'});
        }
        wire.writeBytes("0\r\n".getBytes(StandardCharsets.US_ASCII));
        trailers.forEach((k, v) -> wire.writeBytes((k + ":" + v + "\r\n").getBytes(StandardCharsets.ISO_8859_1)));
        wire.writeBytes(new byte[] {'\r', '\n'});
        return wire.toByteArray();
    }

    private record Decoded(byte[] body, org.loommpm.api.Headers trailers) {
    }
}
