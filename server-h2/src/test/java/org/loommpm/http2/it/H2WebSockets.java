package org.loommpm.http2.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A frame-level client of WebSockets over HTTP/2 (RFC 8441) on one connection: opens extended
 * CONNECT streams, sends masked WebSocket frames as DATA within the server's flow-control windows
 * (waiting for its WINDOW_UPDATEs), and reads the server's WebSocket frames out of each stream's
 * DATA, granting window as it reads ({@link #autoWindow}) and checking that the server never
 * sends beyond the window it was given. Single-threaded (the test's).
 */
final class H2WebSockets implements AutoCloseable {
    /** A server WebSocket frame. */
    record WsFrame(boolean fin, boolean rsv1, int opcode, byte[] payload) {
        String text() {
            return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        }

        int closeCode() {
            return (payload[0] & 0xff) << 8 | (payload[1] & 0xff);
        }
    }

    /** One WebSocket stream's client-side state. */
    static final class Ws {
        final int id;
        Map<String, String> head;
        final ByteArrayOutputStream in = new ByteArrayOutputStream();
        int readPos;
        boolean endStream;
        int rst = -1;
        long sendWindow;
        /** Bytes of DATA sent on the stream. */
        long sent;
        /** Bytes of DATA received beyond what is granted: must stay 0. */
        long recvWindow = 65_535;

        Ws(int id, long sendWindow) {
            this.id = id;
            this.sendWindow = sendWindow;
        }

        int status() {
            return Integer.parseInt(head.get(":status"));
        }
    }

    final FrameClient c;
    final Map<Integer, Ws> streams = new HashMap<>();
    /** Responses of ordinary streams: their headers and body, once ended. */
    final Map<Integer, FrameClient.Response> responses = new HashMap<>();
    private final Map<Integer, Map<String, String>> otherHeads = new HashMap<>();
    private final Map<Integer, ByteArrayOutputStream> otherBodies = new HashMap<>();
    final List<FrameClient.Frame> goAways = new ArrayList<>();
    int serverInitialWindow = 65_535;
    long connSendWindow = 65_535;
    boolean autoWindow = true;
    /** The server's SETTINGS, as (id, value). */
    final Map<Integer, Long> serverSettings = new LinkedHashMap<>();

    H2WebSockets(int port) throws IOException {
        c = new FrameClient(port);
        c.raw(FrameClient.PREFACE);
        c.settings();
        FrameClient.Frame f = c.read();
        if (f.type() != FrameClient.SETTINGS) {
            throw new IOException("expected SETTINGS, got " + f);
        }
        settings(f);
        c.frame(FrameClient.SETTINGS, FrameClient.ACK, 0, new byte[0]);
    }

    private void settings(FrameClient.Frame f) {
        byte[] p = f.payload();
        for (int i = 0; i + 6 <= p.length; i += 6) {
            int id = (p[i] & 0xff) << 8 | (p[i + 1] & 0xff);
            long v = (long) (p[i + 2] & 0xff) << 24 | (p[i + 3] & 0xff) << 16 | (p[i + 4] & 0xff) << 8 | (p[i + 5] & 0xff);
            serverSettings.put(id, v);
            if (id == 0x4) {
                serverInitialWindow = (int) v;
            }
        }
    }

    /** The extended CONNECT's fields for {@code path}, plus {@code extra} (name, value pairs). */
    static String[] connect(String path, String... extra) {
        String[] base = {":method", "CONNECT", ":protocol", "websocket", ":scheme", "http", ":path", path,
            ":authority", "localhost", "sec-websocket-version", "13"};
        String[] all = Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    /** Sends the CONNECT on {@code id} and waits for its response head. */
    Ws open(int id, String path, String... extra) throws IOException {
        return openWith(id, connect(path, extra));
    }

    Ws openWith(int id, String... fields) throws IOException {
        Ws w = new Ws(id, serverInitialWindow);
        streams.put(id, w);
        c.headers(id, false, fields);
        while (w.head == null && w.rst < 0) {
            pump();
        }
        return w;
    }

    /** Sends one WebSocket frame (masked, as a client must) as DATA, within the windows. */
    void send(Ws w, byte[] wsFrame) throws IOException {
        sendData(w, wsFrame, false);
    }

    void sendData(Ws w, byte[] bytes, boolean end) throws IOException {
        int p = 0;
        do {
            while (Math.min(w.sendWindow, connSendWindow) <= 0) {
                pump(); // wait for the server's WINDOW_UPDATE: it grants as the application consumes
            }
            int n = (int) Math.min(Math.min(bytes.length - p, 16_384), Math.min(w.sendWindow, connSendWindow));
            boolean last = p + n == bytes.length;
            c.data(w.id, Arrays.copyOfRange(bytes, p, p + n), end && last);
            w.sendWindow -= n;
            w.sent += n;
            connSendWindow -= n;
            p += n;
        } while (p < bytes.length);
    }

    /** Reads until {@code w} has a whole server frame and returns it. */
    WsFrame next(Ws w) throws IOException {
        for (;;) {
            WsFrame f = parse(w);
            if (f != null) {
                return f;
            }
            if (w.rst >= 0 || w.endStream) {
                throw new IOException("stream " + w.id + " ended (rst " + w.rst + ") without a whole frame");
            }
            pump();
        }
    }

    /** Reads until {@code w} ends (END_STREAM) or is reset. */
    void awaitEnd(Ws w) throws IOException {
        while (!w.endStream && w.rst < 0) {
            pump();
        }
    }

    /** Reads until the response of ordinary stream {@code id} ended. */
    FrameClient.Response response(int id) throws IOException {
        while (!responses.containsKey(id)) {
            pump();
        }
        return responses.get(id);
    }

    private static WsFrame parse(Ws w) {
        byte[] b = w.in.toByteArray();
        int p = w.readPos;
        if (b.length - p < 2) {
            return null;
        }
        int b0 = b[p] & 0xff;
        int b1 = b[p + 1] & 0xff;
        if ((b1 & 0x80) != 0) {
            throw new AssertionError("a server frame is masked");
        }
        long len = b1 & 0x7f;
        int h = 2;
        if (len == 126) {
            if (b.length - p < 4) {
                return null;
            }
            len = (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
            h = 4;
        } else if (len == 127) {
            if (b.length - p < 10) {
                return null;
            }
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = len << 8 | (b[p + 2 + i] & 0xff);
            }
            h = 10;
        }
        if (b.length - p - h < len) {
            return null;
        }
        byte[] payload = Arrays.copyOfRange(b, p + h, p + h + (int) len);
        w.readPos = p + h + (int) len;
        return new WsFrame((b0 & 0x80) != 0, (b0 & 0x40) != 0, b0 & 0x0f, payload);
    }

    /** Reads one frame and files it. */
    void pump() throws IOException {
        FrameClient.Frame f = c.read();
        int id = f.stream();
        Ws w = streams.get(id);
        switch (f.type()) {
            case FrameClient.HEADERS, FrameClient.CONTINUATION -> {
                Map<String, String> fields = c.fields(f);
                if (w != null) {
                    w.head = fields;
                    w.endStream |= f.has(FrameClient.END_STREAM);
                } else {
                    otherHeads.computeIfAbsent(id, k -> new LinkedHashMap<>()).putAll(fields);
                    if (f.has(FrameClient.END_STREAM)) {
                        ended(id);
                    }
                }
            }
            case FrameClient.DATA -> {
                int n = f.payload().length;
                if (w != null) {
                    w.recvWindow -= n;
                    if (w.recvWindow < 0) {
                        throw new AssertionError("the server sent beyond stream " + id + "'s window");
                    }
                    w.in.write(f.payload());
                    w.endStream |= f.has(FrameClient.END_STREAM);
                    if (autoWindow && n > 0) {
                        grant(w, n);
                    }
                } else {
                    otherBodies.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(f.payload());
                    if (n > 0) {
                        c.windowUpdate(0, n);
                        if (!f.has(FrameClient.END_STREAM)) {
                            c.windowUpdate(id, n);
                        }
                    }
                    if (f.has(FrameClient.END_STREAM)) {
                        ended(id);
                    }
                }
            }
            case FrameClient.RST_STREAM -> {
                if (w != null) {
                    w.rst = f.errorCode();
                } else {
                    responses.put(id, new FrameClient.Response(Map.of(":rst", Integer.toString(f.errorCode())),
                            new byte[0]));
                }
            }
            case FrameClient.WINDOW_UPDATE -> {
                int inc = f.errorCode();
                if (id == 0) {
                    connSendWindow += inc;
                } else if (w != null) {
                    w.sendWindow += inc;
                }
            }
            case FrameClient.SETTINGS -> {
                if (!f.has(FrameClient.ACK)) {
                    settings(f);
                    c.frame(FrameClient.SETTINGS, FrameClient.ACK, 0, new byte[0]);
                }
            }
            case FrameClient.GOAWAY -> goAways.add(f);
            default -> {
            }
        }
    }

    /** Gives {@code n} bytes of window back on the stream and the connection. */
    void grant(Ws w, int n) throws IOException {
        w.recvWindow += n;
        c.windowUpdate(0, n);
        if (!w.endStream) {
            c.windowUpdate(w.id, n);
        }
    }

    private void ended(int id) {
        Map<String, String> h = otherHeads.remove(id);
        ByteArrayOutputStream b = otherBodies.remove(id);
        responses.put(id, new FrameClient.Response(h == null ? Map.of() : h, b == null ? new byte[0] : b.toByteArray()));
    }

    /** Whether the server closed the connection (EOF) before the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            for (;;) {
                pump();
            }
        } catch (java.io.EOFException | java.net.SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        c.close();
    }
}
