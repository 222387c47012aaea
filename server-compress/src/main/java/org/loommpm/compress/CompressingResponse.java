package org.loommpm.compress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.loommpm.api.EventStream;
import org.loommpm.api.Headers;
import org.loommpm.api.Response;
import org.loommpm.api.SuspendedResponse;

/**
 * The response {@link CompressionFilter} gives the handler. Whether to compress is decided when
 * the head is about to be committed, from what the handler set by then: the status (not 1xx,
 * 204, 206 or 304; a 304 gets the {@code ETag} and {@code Vary} the 200 would have),
 * {@code Content-Type} (a configured type), no {@code Content-Encoding} (the
 * body is already encoded: a precompressed file, or the handler's own), no
 * {@code Cache-Control: no-transform}, a body not known to be shorter than the minimum size, and
 * a coding the client accepts. Then {@code Content-Encoding} is set, {@code Content-Length}
 * dropped (or set to the compressed length when the whole body is known), a strong
 * {@code ETag} made weak (the bytes differ; the meaning does not, as nginx does), and
 * {@code Vary: Accept-Encoding} added whenever the type could be compressed.
 *
 * <p>The body: {@link #send(byte[])} compresses the whole body (Content-Length kept);
 * {@link #outputStream()} holds back up to the minimum size before it decides (a short body
 * closed early goes out as it is), and then streams; its {@code flush()} flushes the coding
 * too, so server-sent events reach the client as they are written. {@link #sendFile(Path)}
 * and {@link #sendFile(Path, long, long)} stream the file through the coding (no zero-copy for
 * a coded body); a 206 part is never coded. Worker-owned, like the response it wraps.
 */
final class CompressingResponse implements Response {
    private final Response delegate;
    private final String acceptEncoding;
    private final CompressionSettings settings;
    /** Whether the request is a HEAD (the server drops the body). */
    private final boolean head;
    private Deferred stream;

    CompressingResponse(Response delegate, String acceptEncoding, CompressionSettings settings, boolean head) {
        this.delegate = delegate;
        this.acceptEncoding = acceptEncoding;
        this.settings = settings;
        this.head = head;
    }

    @Override
    public Response status(int status) {
        delegate.status(status);
        return this;
    }

    @Override
    public int status() {
        return delegate.status();
    }

    @Override
    public Response header(String name, String value) {
        delegate.header(name, value);
        return this;
    }

    @Override
    public Headers headers() {
        return delegate.headers();
    }

    @Override
    public boolean isCommitted() {
        return delegate.isCommitted();
    }

    /** An interim response carries no body: nothing to code, and it goes out as the handler sends it. */
    @Override
    public boolean sendInterim(int status, Headers fields) throws IOException {
        return delegate.sendInterim(status, fields);
    }

    /**
     * The server's own suspension: the answer is written later through the handle, past this
     * wrapper, so it is not coded. Without this the interface's default would refuse, and every
     * long poll behind the filter would fail.
     */
    @Override
    public SuspendedResponse suspend() {
        return delegate.suspend();
    }

    /** As {@link #suspend()}. */
    @Override
    public SuspendedResponse suspend(java.time.Duration timeout) {
        return delegate.suspend(timeout);
    }

    /**
     * The server's own event stream, not coded: its events are written from any thread past
     * this wrapper. Without this the interface's default would refuse, and every
     * {@code eventStream()} behind the filter would answer 500.
     */
    @Override
    public EventStream eventStream() throws IOException {
        return delegate.eventStream();
    }

    /**
     * The server's own trailers, after the body whether coded or not: they are about the
     * exchange (a status, a checksum the handler computed), sent as the handler gave them.
     */
    @Override
    public Response trailers(java.util.function.Supplier<Headers> fields) {
        delegate.trailers(fields);
        return this;
    }

    /** Passed on, so that the scoreboard shows the exchange being logged. */
    @Override
    public void logging() {
        delegate.logging();
    }

    @Override
    public long bytesSent() {
        return delegate.bytesSent();
    }

    @Override
    public long bodyBytesSent() {
        return delegate.bodyBytesSent();
    }

    /**
     * The coding to apply to a body of {@code length} bytes (-1: unknown), or null; adds
     * {@code Vary} when the type is one that could be compressed. A 304 is never coded, but it
     * carries the {@code ETag} and {@code Vary} the 200 would have (RFC 9110 §15.4.5): else the
     * strong tag it sends does not match the weak one a cache holds, which then cannot freshen
     * its entry (RFC 9111 §4.3.4).
     */
    private ContentCoding decide(long length) {
        int st = delegate.status();
        if (st < 200 || st == 204 || st == 206 || delegate.isCommitted()) {
            return null;
        }
        Headers h = delegate.headers();
        if (h.contains("Content-Encoding")) {
            return null;
        }
        Set<ContentCoding> offered = settings.codingsFor(h.first("Content-Type"));
        if (offered.isEmpty() || h.hasToken("Cache-Control", "no-transform")) {
            return null;
        }
        if (!h.hasToken("Vary", "Accept-Encoding") && !h.hasToken("Vary", "*")) {
            h.add("Vary", "Accept-Encoding");
        }
        if (st != 304 && length >= 0 && length < settings.minimumSize()) {
            return null;
        }
        if (offered.contains(ContentCoding.BROTLI) && !Brotli.available()) {
            offered = Set.of(ContentCoding.GZIP); // LM2220 said so once: gzip stands in for br
        }
        ContentCoding c = AcceptEncoding.choose(acceptEncoding, offered);
        if (st == 304) {
            if (c != null) {
                weakenETag(h);
            }
            return null;
        }
        return c;
    }

    /** The head for a coded body; {@code length} the coded length, or -1 (streamed). */
    private void markCoded(ContentCoding c, long length) {
        Headers h = delegate.headers();
        h.set("Content-Encoding", c.token());
        if (length >= 0) {
            h.set("Content-Length", Long.toString(length));
        } else {
            h.remove("Content-Length");
        }
        weakenETag(h);
    }

    /** A strong {@code ETag} made weak: the coded bytes differ, the meaning does not. */
    private static void weakenETag(Headers h) {
        String etag = h.first("ETag");
        if (etag != null && etag.startsWith("\"")) {
            h.set("ETag", "W/" + etag);
        }
    }

    private byte[] encode(ContentCoding c, byte[] body, int off, int len) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, len / 4));
        try (OutputStream z = c.open(out, settings.level(c))) {
            z.write(body, off, len);
        }
        return out.toByteArray();
    }

    @Override
    public void send(byte[] body) throws IOException {
        if (head && body.length == 0 && delegate.headers().contains("Content-Length")) {
            sendAnnouncedHead();
            return;
        }
        ContentCoding c = decide(body.length);
        if (c == null) {
            delegate.send(body);
            return;
        }
        byte[] coded = encode(c, body, 0, body.length);
        markCoded(c, coded.length);
        delegate.send(coded);
    }

    /**
     * A HEAD stating its GET's {@code Content-Length} without the bytes (a static file's): it
     * gets the coded variant's head as its GET would, but without a {@code Content-Length}, which
     * only coding the bytes would tell (RFC 9110 §9.3.2 lets a HEAD leave such a field out).
     */
    private void sendAnnouncedHead() throws IOException {
        long announced;
        try {
            announced = Long.parseLong(delegate.headers().first("Content-Length"));
        } catch (NumberFormatException e) {
            announced = -1;
        }
        ContentCoding c = decide(announced);
        if (c == null) {
            delegate.send(new byte[0]);
            return;
        }
        markCoded(c, -1);
        OutputStream out = delegate.outputStream();
        out.flush(); // commits the head as a streamed one's: closed unflushed, it would state a length of 0
        out.close();
    }

    @Override
    public OutputStream outputStream() throws IOException {
        if (stream == null) {
            stream = new Deferred();
        }
        return stream;
    }

    @Override
    public void sendFile(Path file) throws IOException {
        ContentCoding c = decide(Files.size(file));
        if (c == null) {
            delegate.sendFile(file);
            return;
        }
        markCoded(c, -1);
        try (InputStream in = Files.newInputStream(file);
             OutputStream z = c.open(delegate.outputStream(), settings.level(c))) {
            in.transferTo(z);
        }
    }

    /** A slice that is the whole representation (status 200) is coded; a 206 part never is. */
    @Override
    public void sendFile(Path file, long position, long count) throws IOException {
        ContentCoding c = decide(count);
        if (c == null) {
            delegate.sendFile(file, position, count);
            return;
        }
        markCoded(c, -1);
        try (java.nio.channels.FileChannel fc = java.nio.channels.FileChannel.open(file);
             OutputStream z = c.open(delegate.outputStream(), settings.level(c))) {
            Response.copyFileRange(fc, position, count, z);
        }
    }

    /** After the handler returned normally: a stream it left open is finished (the coding's trailer). */
    void complete() throws IOException {
        if (stream != null) {
            stream.close();
        }
    }

    /**
     * The handler's body stream: buffers up to the minimum size, then decides and passes
     * everything through the coding (or straight to the response's own stream).
     */
    private final class Deferred extends OutputStream {
        private byte[] held = new byte[Math.max(16, Math.min(settings.minimumSize(), 64 * 1024))];
        private int count;
        private OutputStream target;
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("stream closed");
            }
            if (target == null && count + len < settings.minimumSize()) {
                if (count + len > held.length) {
                    held = Arrays.copyOf(held, Math.max(held.length * 2, count + len));
                }
                System.arraycopy(b, off, held, count, len);
                count += len;
                return;
            }
            open(declaredLength());
            target.write(b, off, len);
        }

        /** The handler asked for bytes on the wire: decide now (length unknown unless declared). */
        @Override
        public void flush() throws IOException {
            if (closed) {
                return;
            }
            open(declaredLength());
            target.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (target == null) {
                // The whole body is known: one write with its exact (maybe coded) length.
                ContentCoding c = decide(count);
                if (c == null) {
                    OutputStream out = delegate.outputStream();
                    out.write(held, 0, count);
                    out.close();
                } else {
                    byte[] coded = encode(c, held, 0, count);
                    markCoded(c, coded.length);
                    delegate.send(coded);
                }
                return;
            }
            target.close();
        }

        private long declaredLength() {
            String cl = delegate.headers().first("Content-Length");
            try {
                return cl == null ? -1 : Long.parseLong(cl.strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        private void open(long length) throws IOException {
            if (target != null) {
                return;
            }
            ContentCoding c = decide(length);
            if (c == null) {
                target = delegate.outputStream();
            } else {
                markCoded(c, -1);
                target = c.open(delegate.outputStream(), settings.level(c));
            }
            if (count > 0) {
                target.write(held, 0, count);
                count = 0;
            }
            held = null;
        }
    }
}
