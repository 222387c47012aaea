package org.loommpm.http1;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.HeaderValidation;
import org.loommpm.http.syntax.HttpChars;

/**
 * Decodes a chunked request body (RFC 9112 §7.1) from the connection's input.
 *
 * <p>The next pipelined request follows the body in the same stream, so this stream never reads
 * past the body's end: framing lines are read byte by byte and chunk data with reads bounded by
 * what is left of the chunk. Chunk extensions are accepted and ignored, but bounded. Every line
 * (chunk-size, the CRLF after chunk data, trailer fields, the final empty line) must end with
 * CRLF: RFC 9112 §7.1 allows nothing else there, and a peer that reads a bare LF differently
 * would disagree on where the body ends (request smuggling), so a bare LF or CR is a 400.
 * Closing this stream does not close {@code raw}.
 * Not thread-safe: the body belongs to the worker handling the exchange.
 */
public final class ChunkedInputStream extends InputStream {
    /** Longest chunk-size line (size plus extensions) accepted, without its line ending. */
    static final int MAX_SIZE_LINE = 4096;
    /** Hex digits of the largest chunk size representable in a positive long. */
    private static final int MAX_SIZE_DIGITS = 16;

    private final InputStream raw;
    private final long limitRequestBody;
    private final int limitTrailerFields;
    private final int limitFieldSize;
    private static final System.Logger LOG = System.getLogger("org.loommpm.http1");
    /** The trailer fields as received. */
    private final Headers trailers = new Headers(1);
    /** {@link #trailers} without the fields not allowed there; made on first ask once done. */
    private Headers allowed;

    /** Data bytes left in the current chunk. */
    private long remaining;
    /** Sum of the chunk sizes seen so far, for LimitRequestBody. */
    private long total;
    /** Whether the current chunk's data is followed by a CRLF not yet read. */
    private boolean dataCrlfPending;
    private boolean done;
    /** Holds one trailer line; allocated only for a body that has trailers. */
    private byte[] line;

    /**
     * @param raw the connection's input, positioned at the first chunk-size line
     * @param limitRequestBody most decoded body bytes, 0 for no limit
     * @param limitTrailerFields most trailer fields
     * @param limitFieldSize longest trailer field line, in bytes without its line ending
     */
    public ChunkedInputStream(InputStream raw, long limitRequestBody, int limitTrailerFields, int limitFieldSize) {
        this.raw = Objects.requireNonNull(raw);
        this.limitRequestBody = limitRequestBody;
        this.limitTrailerFields = limitTrailerFields;
        this.limitFieldSize = limitFieldSize;
    }

    /**
     * {@inheritDoc}
     *
     * @throws HttpException 400 on malformed framing, 413 past LimitRequestBody, 431 when the
     *     trailer section exceeds its limits
     * @throws EOFException when the input ends inside the body
     */
    @Override
    public int read() throws IOException {
        if (!nextData()) {
            return -1;
        }
        int b = raw.read();
        if (b < 0) {
            throw prematureEof();
        }
        remaining--;
        return b;
    }

    /**
     * {@inheritDoc}
     *
     * @throws HttpException 400 on malformed framing, 413 past LimitRequestBody, 431 when the
     *     trailer section exceeds its limits
     * @throws EOFException when the input ends inside the body
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!nextData()) {
            return -1;
        }
        int n = raw.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw prematureEof();
        }
        remaining -= n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return remaining == 0 ? 0 : (int) Math.min(raw.available(), remaining);
    }

    /**
     * Whether the rest of the body, from where this decoder stands, lies whole within
     * {@code buffered} (the bytes received after those it has read): a copy of its state decodes
     * them, so the answer is the decoder's own. A framing error (or a size past the limits) there
     * is {@code true} as well: how the body ends is known, and skipping it answers that error's
     * status in place of an answer not yet sent. Nothing is consumed.
     */
    boolean endWithin(ByteBuffer buffered) {
        if (done) {
            return true;
        }
        ChunkedInputStream probe = new ChunkedInputStream(new ByteArrayInputStream(buffered.array(),
                buffered.arrayOffset() + buffered.position(), buffered.remaining()), limitRequestBody,
                limitTrailerFields, limitFieldSize);
        probe.remaining = remaining;
        probe.total = total;
        probe.dataCrlfPending = dataCrlfPending;
        try {
            probe.transferTo(OutputStream.nullOutputStream());
            return true;
        } catch (HttpException malformed) {
            return true;
        } catch (IOException endOfWhatArrived) {
            return false;
        }
    }

    /**
     * The trailer fields once a read has returned -1 (empty before, and when none were sent),
     * without those no trailer section may carry ({@link HeaderValidation#allowedTrailers}).
     */
    public Headers trailers() {
        if (!done) {
            return new Headers(1);
        }
        if (allowed == null) {
            allowed = HeaderValidation.allowedTrailers(trailers, name -> LOG.log(System.Logger.Level.DEBUG,
                    "LM2780 request trailer field {0} dropped: not allowed in trailers (RFC 9110 §6.5.1)", name));
        }
        return allowed;
    }

    /** Reads framing until chunk data is available; false at the end of the body. */
    private boolean nextData() throws IOException {
        while (remaining == 0) {
            if (done) {
                return false;
            }
            if (dataCrlfPending) {
                readDataCrlf();
                dataCrlfPending = false;
            }
            long size = readChunkSize();
            if (size == 0) {
                readTrailers();
                done = true;
                return false;
            }
            if (limitRequestBody > 0 && size > limitRequestBody - total) {
                throw new HttpException(413, "chunked body exceeds LimitRequestBody " + limitRequestBody);
            }
            total += size;
            remaining = size;
            dataCrlfPending = true;
        }
        return true;
    }

    /** {@code 1*HEXDIG [BWS ";" chunk-ext] CRLF}; the extensions are checked for CTLs only. */
    private long readChunkSize() throws IOException {
        long size = 0;
        int digits = 0;
        int length = 0;
        boolean inExtensions = false;
        boolean afterWhitespace = false;
        while (true) {
            int b = readByte();
            if (isLineEnd(b)) {
                break;
            }
            if (++length > MAX_SIZE_LINE) {
                throw Http1Syntax.bad("chunk-size line longer than " + MAX_SIZE_LINE + " bytes");
            }
            if (inExtensions) {
                if (Http1Syntax.isCtl(b)) {
                    throw Http1Syntax.bad("control character in chunk extension");
                }
                continue;
            }
            int d = afterWhitespace ? -1 : HttpChars.hexValue(b);
            if (d >= 0) {
                if (++digits > MAX_SIZE_DIGITS) {
                    throw Http1Syntax.bad("chunk size has more than " + MAX_SIZE_DIGITS + " hex digits");
                }
                size = size << 4 | d;
            } else if (digits > 0 && b == ';') {
                inExtensions = true;
            } else if (digits > 0 && Http1Syntax.isOws(b)) {
                afterWhitespace = true;
            } else {
                throw Http1Syntax.bad("malformed chunk size");
            }
        }
        if (digits == 0 || (afterWhitespace && !inExtensions)) {
            throw Http1Syntax.bad("malformed chunk size");
        }
        if (size < 0) {
            throw Http1Syntax.bad("chunk size overflows");
        }
        return size;
    }

    /** The CRLF closing a chunk's data. */
    private void readDataCrlf() throws IOException {
        if (readByte() != '\r' || readByte() != '\n') {
            throw Http1Syntax.bad("chunk data not followed by CRLF");
        }
    }

    /** Reads trailer field lines up to the empty line ending the body. */
    private void readTrailers() throws IOException {
        int fields = 0;
        while (true) {
            int len = readTrailerLine();
            if (len == 0) {
                return;
            }
            if (++fields > limitTrailerFields) {
                throw new HttpException(431, "more than " + limitTrailerFields + " trailer fields");
            }
            Http1Syntax.parseFieldLine(line, 0, len, trailers);
        }
    }

    /** Reads one line into {@link #line}; returns its length without the line ending. */
    private int readTrailerLine() throws IOException {
        int len = 0;
        while (true) {
            int b = readByte();
            if (isLineEnd(b)) {
                return len;
            }
            if (len == limitFieldSize) {
                throw new HttpException(431, "trailer field line longer than " + limitFieldSize + " bytes");
            }
            if (line == null) {
                line = new byte[Math.min(limitFieldSize, 256)];
            } else if (len == line.length) {
                line = Arrays.copyOf(line, Math.min(limitFieldSize, len * 2));
            }
            line[len++] = (byte) b;
        }
    }

    /** Whether {@code b} ends a line: a CR and the LF that must follow it (a bare CR or LF is a 400). */
    private boolean isLineEnd(int b) throws IOException {
        if (b == '\n') {
            throw Http1Syntax.bad("bare LF in chunked framing");
        }
        if (b == '\r' && readByte() != '\n') {
            throw Http1Syntax.bad("bare CR in chunked framing");
        }
        return b == '\r';
    }

    private int readByte() throws IOException {
        int b = raw.read();
        if (b < 0) {
            throw prematureEof();
        }
        return b;
    }

    private static EOFException prematureEof() {
        return new EOFException("connection closed inside a chunked body");
    }
}
