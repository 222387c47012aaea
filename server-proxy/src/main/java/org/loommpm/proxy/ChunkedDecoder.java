package org.loommpm.proxy;

import org.loommpm.http.syntax.HttpChars;

/**
 * The chunked transfer coding (RFC 9112 §7.1) decoded as bytes arrive, for a backend connection
 * read by an event loop: {@link #decode} takes what a read brought, hands the data inside it to a
 * {@link Sink} and keeps its place (in a size line, a chunk, the CRLF after it, the trailers)
 * until the next read. Extensions are ignored, trailers read and dropped, as
 * {@link BackendBodies} does for a blocking read. Chunk lines are at most 4 KiB, the trailer
 * section at most {@link BackendConnection#MAX_HEAD}.
 *
 * <p><b>Threads.</b> One decoder per response, used by the loop thread that owns the connection.
 */
final class ChunkedDecoder {
    private static final int MAX_LINE = 4096;

    private enum State { SIZE, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILER, TRAILER_LF, DONE }

    /** Where the data of the chunks goes. */
    interface Sink {
        void data(byte[] b, int off, int len);
    }

    private State state = State.SIZE;
    private long size;
    private int digits;
    private int lineLength;
    private int trailerBytes;
    /** Whether the trailer line being read has any byte (an empty one ends the message). */
    private boolean trailerLineEmpty = true;

    /** {@return whether the last chunk and the trailers have been read} */
    boolean isDone() {
        return state == State.DONE;
    }

    /**
     * Decodes {@code b[from, to)}.
     *
     * @return how many bytes were consumed: all of them, or fewer when the message ended (the
     *         rest is not this response's)
     * @throws BackendProtocolException the framing is broken
     */
    int decode(byte[] b, int from, int to, Sink sink) throws BackendProtocolException {
        int i = from;
        while (i < to && state != State.DONE) {
            switch (state) {
                case DATA -> {
                    int n = (int) Math.min(size, to - i);
                    sink.data(b, i, n);
                    i += n;
                    size -= n;
                    if (size == 0) {
                        state = State.DATA_CR;
                    }
                }
                case SIZE -> {
                    byte c = b[i++];
                    int d = HttpChars.hexValue(c & 0xff);
                    if (d >= 0) {
                        if (++digits > 15) {
                            throw new BackendProtocolException("malformed chunk size");
                        }
                        size = size << 4 | d;
                    } else if (digits == 0) {
                        throw new BackendProtocolException("malformed chunk size");
                    } else {
                        i--;
                        state = State.EXTENSION;
                    }
                }
                case EXTENSION -> {
                    byte c = b[i++];
                    if (c == '\n') {
                        endSizeLine();
                    } else if (c == '\r') {
                        state = State.SIZE_LF;
                    } else if (++lineLength > MAX_LINE) {
                        throw new BackendProtocolException("chunk line too long");
                    } else if (c != ';' && c != ' ' && c != '\t' && lineLength == 1) {
                        throw new BackendProtocolException("malformed chunk size");
                    }
                }
                case SIZE_LF -> {
                    if (b[i++] != '\n') {
                        throw new BackendProtocolException("malformed chunk size line");
                    }
                    endSizeLine();
                }
                case DATA_CR -> state = expect(b[i++], '\r', State.DATA_LF);
                case DATA_LF -> {
                    state = expect(b[i++], '\n', State.SIZE);
                    size = 0;
                    digits = 0;
                    lineLength = 0;
                }
                case TRAILER -> {
                    byte c = b[i++];
                    if (c == '\n') {
                        endTrailerLine();
                    } else if (c == '\r') {
                        state = State.TRAILER_LF;
                    } else {
                        trailerLineEmpty = false;
                        if (++trailerBytes > BackendConnection.MAX_HEAD) {
                            throw new BackendProtocolException("trailer section too large");
                        }
                    }
                }
                case TRAILER_LF -> {
                    if (b[i++] != '\n') {
                        throw new BackendProtocolException("malformed trailer line");
                    }
                    endTrailerLine();
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
        return i - from;
    }

    private void endSizeLine() {
        state = size == 0 ? State.TRAILER : State.DATA;
        lineLength = 0;
    }

    private void endTrailerLine() {
        state = trailerLineEmpty ? State.DONE : State.TRAILER;
        trailerLineEmpty = true;
    }

    private static State expect(byte c, char want, State next) throws BackendProtocolException {
        if (c != want) {
            throw new BackendProtocolException("chunk not followed by CRLF");
        }
        return next;
    }
}
