package org.loommpm.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.loommpm.http.syntax.HttpChars;

/**
 * The body codecs of the backend side: a response body read as its framing says (a premature end
 * is an {@link EOFException}, never a short body taken as whole), and a request body written
 * chunked when its length is not known. Used by the lessee of the connection only.
 */
final class BackendBodies {
    /** Longest chunk-size line (size, extensions) accepted from a backend. */
    private static final int MAX_CHUNK_LINE = 4096;

    private BackendBodies() {
    }

    /** The response body stream for {@code framing}; reaching its end leaves the connection at the next response. */
    static InputStream responseBody(BackendConnection c, ResponseHead.Framing framing, long length) {
        return switch (framing) {
            case NONE -> InputStream.nullInputStream();
            case LENGTH -> new Fixed(c, length);
            case CHUNKED -> new Chunked(c);
            case CLOSE -> new UntilClose(c);
        };
    }

    /** {@code Content-Length} bytes. */
    private static final class Fixed extends InputStream {
        private final BackendConnection c;
        private long left;

        Fixed(BackendConnection c, long length) {
            this.c = c;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = c.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("backend closed the connection with " + left + " body bytes missing");
            }
            left -= n;
            return n;
        }
    }

    /** Until the backend closes: the only framing whose end is the end of the connection. */
    private static final class UntilClose extends InputStream {
        private final BackendConnection c;

        UntilClose(BackendConnection c) {
            this.c = c;
        }

        @Override
        public int read() throws IOException {
            return c.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return c.read(b, off, len);
        }
    }

    /** Chunked transfer coding (RFC 9112 §7.1); extensions ignored, trailers read and dropped. */
    private static final class Chunked extends InputStream {
        private final BackendConnection c;
        private long left;
        private boolean done;
        private boolean first = true;

        Chunked(BackendConnection c) {
            this.c = c;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (left == 0) {
                if (!first) {
                    expectCrlf();
                }
                first = false;
                left = chunkSize();
                if (left == 0) {
                    trailers();
                    done = true;
                    return -1;
                }
            }
            int n = c.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("backend closed the connection inside a chunk");
            }
            left -= n;
            return n;
        }

        private long chunkSize() throws IOException {
            String line = line();
            int semi = line.indexOf(';');
            String hex = (semi < 0 ? line : line.substring(0, semi)).strip();
            if (hex.isEmpty() || hex.length() > 15) {
                throw new BackendProtocolException("malformed chunk size");
            }
            long size = 0;
            for (int i = 0; i < hex.length(); i++) {
                int d = HttpChars.hexValue(hex.charAt(i));
                if (d < 0) {
                    throw new BackendProtocolException("malformed chunk size");
                }
                size = size << 4 | d;
            }
            return size;
        }

        private void expectCrlf() throws IOException {
            if (!line().isEmpty()) {
                throw new BackendProtocolException("chunk not followed by CRLF");
            }
        }

        private void trailers() throws IOException {
            int total = 0;
            for (;;) {
                String t = line();
                if (t.isEmpty()) {
                    return;
                }
                total += t.length();
                if (total > BackendConnection.MAX_HEAD) {
                    throw new BackendProtocolException("trailer section too large");
                }
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (;;) {
                int ch = c.read();
                if (ch < 0) {
                    throw new EOFException("backend closed the connection inside the chunked framing");
                }
                if (ch == '\n') {
                    int n = sb.length();
                    return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
                }
                if (sb.length() >= MAX_CHUNK_LINE) {
                    throw new BackendProtocolException("chunk line too long");
                }
                sb.append((char) ch);
            }
        }
    }

    /**
     * A request body of unknown length toward the backend, chunked: each write is one chunk
     * (the client's reads are 16 KiB at most), {@link #close} writes the last chunk. Does not close
     * the connection.
     */
    static final class ChunkedOut extends OutputStream {
        private static final byte[] CRLF = {'\r', '\n'};
        private static final byte[] LAST = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        private final OutputStream out;

        ChunkedOut(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return;
            }
            out.write(Integer.toHexString(len).getBytes(StandardCharsets.US_ASCII));
            out.write(CRLF);
            out.write(b, off, len);
            out.write(CRLF);
        }

        @Override
        public void close() throws IOException {
            out.write(LAST);
        }
    }
}
