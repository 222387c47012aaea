package org.loommpm.http2.it;

import com.twitter.hpack.Decoder;
import com.twitter.hpack.Encoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.loommpm.http2.frame.TestFrames;

/**
 * A test-only HTTP/2 client speaking raw frames over a socket, to provoke every error case: it
 * sends exactly what a test asks (valid or not) and reads frames back one by one.
 */
final class FrameClient implements AutoCloseable {
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** One frame as read. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        int int32(int at) {
            return (payload[at] & 0xff) << 24 | (payload[at + 1] & 0xff) << 16 | (payload[at + 2] & 0xff) << 8
                    | (payload[at + 3] & 0xff);
        }

        /** The error code of a RST_STREAM or GOAWAY. */
        int errorCode() {
            return type == GOAWAY ? int32(4) : int32(0);
        }

        boolean has(int flag) {
            return (flags & flag) != 0;
        }

        @Override
        public String toString() {
            return "frame type=" + type + " flags=" + flags + " stream=" + stream + " len=" + payload.length;
        }
    }

    /** A response read by {@link #response}; {@code trailers} those of a HEADERS frame after the final head. */
    record Response(Map<String, String> headers, byte[] body, Map<String, String> trailers) {
        Response(Map<String, String> headers, byte[] body) {
            this(headers, body, Map.of());
        }

        int status() {
            return Integer.parseInt(headers.get(":status"));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    static final int DATA = 0, HEADERS = 1, PRIORITY = 2, RST_STREAM = 3, SETTINGS = 4, PUSH_PROMISE = 5, PING = 6,
            GOAWAY = 7, WINDOW_UPDATE = 8, CONTINUATION = 9;
    static final int END_STREAM = 1, ACK = 1, END_HEADERS = 4, PADDED = 8, PRIORITY_FLAG = 0x20;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final Encoder encoder = new Encoder(4096);
    private final Decoder decoder = new Decoder(1 << 20, 4096);
    private boolean autoWindow = true;

    FrameClient(int port) throws IOException {
        this(port, null);
    }

    /** @param from the local address to connect from (another loopback address is another client), or null */
    FrameClient(int port, java.net.InetAddress from) throws IOException {
        socket = from == null ? new Socket("127.0.0.1", port)
                : new Socket(java.net.InetAddress.getLoopbackAddress(), port, from, 0);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(5000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Connects, sends the preface and an empty SETTINGS, reads the server's SETTINGS and acks it. */
    static FrameClient open(int port) throws IOException {
        return open(port, null);
    }

    /** As {@link #open(int)}, from the local address {@code from} (null: any). */
    static FrameClient open(int port, java.net.InetAddress from) throws IOException {
        FrameClient c = new FrameClient(port, from);
        c.handshake();
        return c;
    }

    void handshake() throws IOException {
        out.write(PREFACE);
        settings();
        Frame f = read();
        if (f.type() != SETTINGS || f.has(ACK)) {
            throw new IOException("expected the server's SETTINGS, got " + f);
        }
        frame(SETTINGS, ACK, 0, new byte[0]);
    }

    void autoWindow(boolean on) {
        autoWindow = on;
    }

    Socket socket() {
        return socket;
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(TestFrames.frame(type, flags, stream, payload));
        out.flush();
    }

    void settings(int... idValues) throws IOException {
        byte[] p = new byte[idValues.length / 2 * 6];
        for (int i = 0, o = 0; i < idValues.length; i += 2, o += 6) {
            p[o] = (byte) (idValues[i] >>> 8);
            p[o + 1] = (byte) idValues[i];
            p[o + 2] = (byte) (idValues[i + 1] >>> 24);
            p[o + 3] = (byte) (idValues[i + 1] >>> 16);
            p[o + 4] = (byte) (idValues[i + 1] >>> 8);
            p[o + 5] = (byte) idValues[i + 1];
        }
        frame(SETTINGS, 0, 0, p);
    }

    static byte[] int32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    void windowUpdate(int stream, int increment) throws IOException {
        frame(WINDOW_UPDATE, 0, stream, int32(increment));
    }

    void rst(int stream, int code) throws IOException {
        frame(RST_STREAM, 0, stream, int32(code));
    }

    void ping(byte[] payload) throws IOException {
        frame(PING, 0, 0, payload);
    }

    /** An HPACK block for the given fields (name, value pairs, in order). */
    byte[] block(String... fields) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i += 2) {
            encoder.encodeHeader(b, fields[i].getBytes(StandardCharsets.ISO_8859_1),
                    fields[i + 1].getBytes(StandardCharsets.ISO_8859_1), false);
        }
        return b.toByteArray();
    }

    /** The usual request fields for {@code GET path}. */
    static String[] get(String path) {
        return new String[] {":method", "GET", ":scheme", "http", ":path", path, ":authority", "localhost"};
    }

    /** Sends complete GET requests on streams {@code firstStream}, +2, ... in one write (one read batch for the server). */
    void getsInOneWrite(int firstStream, String... paths) throws IOException {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < paths.length; i++) {
            batch.write(TestFrames.frame(HEADERS, END_HEADERS | END_STREAM, firstStream + 2 * i, block(get(paths[i]))));
        }
        raw(batch.toByteArray());
    }

    void headers(int stream, boolean endStream, String... fields) throws IOException {
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), stream, block(fields));
    }

    void data(int stream, byte[] payload, boolean endStream) throws IOException {
        frame(DATA, endStream ? END_STREAM : 0, stream, payload);
    }

    /** Reads the next frame (throws {@link SocketTimeoutException} after 5 s, EOFException at close). */
    Frame read() throws IOException {
        int len = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = new byte[len];
        in.readFully(payload);
        return new Frame(type, flags, stream, payload);
    }

    /** Reads frames until one of {@code type} (on any stream); others are skipped. */
    Frame expect(int type) throws IOException {
        for (;;) {
            Frame f = read();
            if (f.type() == HEADERS || f.type() == CONTINUATION) {
                decode(f.payload(), new LinkedHashMap<>()); // keeps the HPACK table in step
            }
            if (f.type() == type) {
                return f;
            }
        }
    }

    /** Decodes a HEADERS frame's block (keeping the HPACK table in step); its fields. */
    Map<String, String> fields(Frame f) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        decode(f.payload(), m);
        return m;
    }

    /** Reads until GOAWAY and returns its error code; then the server must close. */
    int expectGoAway() throws IOException {
        return expect(GOAWAY).errorCode();
    }

    /** Reads until RST_STREAM on {@code stream} and returns its error code. */
    int expectRst(int stream) throws IOException {
        for (;;) {
            Frame f = expect(RST_STREAM);
            if (f.stream() == stream) {
                return f.errorCode();
            }
        }
    }

    /** Whether the server closed the connection (EOF or reset) within the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            for (;;) {
                read();
            }
        } catch (EOFException | java.net.SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    private void decode(byte[] block, Map<String, String> into) throws IOException {
        decoder.decode(new ByteArrayInputStream(block), (n, v, s) -> into.put(new String(n, StandardCharsets.ISO_8859_1),
                new String(v, StandardCharsets.ISO_8859_1)));
        decoder.endHeaderBlock();
    }

    private final Map<Integer, Map<String, String>> partialHeaders = new java.util.HashMap<>();
    private final Map<Integer, ByteArrayOutputStream> partialBodies = new java.util.HashMap<>();
    private final Map<Integer, Response> done = new java.util.HashMap<>();

    /**
     * Reads until {@code stream}'s whole response arrived (other streams' responses are kept for
     * their own call), granting window as data arrives.
     */
    Response response(int stream) throws IOException {
        for (;;) {
            Response r = done.remove(stream);
            if (r != null) {
                return r;
            }
            Frame f = read();
            int id = f.stream();
            switch (f.type()) {
                case HEADERS, CONTINUATION -> {
                    if (f.type() == HEADERS) {
                        // A block after a final head (2xx-5xx) is the trailer section.
                        Map<String, String> head = partialHeaders.get(id);
                        String status = head == null ? null : head.get(":status");
                        blockTarget.put(id, status != null && status.charAt(0) != '1'
                                ? partialTrailers.computeIfAbsent(id, k -> new LinkedHashMap<>())
                                : partialHeaders.computeIfAbsent(id, k -> new LinkedHashMap<>()));
                    }
                    decode(f.payload(), blockTarget.get(id));
                    if (f.has(END_STREAM)) {
                        complete(id);
                    }
                }
                case DATA -> {
                    partialBodies.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(f.payload());
                    if (autoWindow && f.payload().length > 0) {
                        grant(id, f.payload().length, f.has(END_STREAM));
                    }
                    if (f.has(END_STREAM)) {
                        complete(id);
                    }
                }
                case RST_STREAM -> {
                    if (id == stream) {
                        throw new IOException("stream " + stream + " reset with code " + f.errorCode());
                    }
                }
                case GOAWAY -> throw new IOException("GOAWAY with code " + f.errorCode());
                default -> {
                }
            }
        }
    }

    /**
     * Returns the window for received DATA as real clients do, in steps of at least 1 KiB (a
     * WINDOW_UPDATE for a few bytes counts against the server's control-frame guard).
     */
    private void grant(int id, int n, boolean ended) throws IOException {
        connectionCredit += n;
        if (connectionCredit >= 1024) {
            windowUpdate(0, connectionCredit);
            connectionCredit = 0;
        }
        int credit = streamCredit.merge(id, n, Integer::sum);
        if (ended) {
            streamCredit.remove(id);
        } else if (credit >= 1024) {
            windowUpdate(id, credit);
            streamCredit.remove(id);
        }
    }

    private int connectionCredit;
    private final Map<Integer, Integer> streamCredit = new java.util.HashMap<>();

    private final Map<Integer, Map<String, String>> partialTrailers = new java.util.HashMap<>();
    /** The map the stream's current header block (HEADERS and its CONTINUATIONs) decodes into. */
    private final Map<Integer, Map<String, String>> blockTarget = new java.util.HashMap<>();

    private void complete(int id) {
        Map<String, String> h = partialHeaders.remove(id);
        ByteArrayOutputStream b = partialBodies.remove(id);
        Map<String, String> t = partialTrailers.remove(id);
        blockTarget.remove(id);
        done.put(id, new Response(h == null ? Map.of() : h, b == null ? new byte[0] : b.toByteArray(),
                t == null ? Map.of() : t));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
