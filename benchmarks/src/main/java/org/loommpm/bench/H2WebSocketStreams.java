package org.loommpm.bench;

import com.twitter.hpack.Decoder;
import com.twitter.hpack.Encoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * WebSockets over HTTP/2 (RFC 8441) for {@link IdleConnections}: h2c connections with prior
 * knowledge, each carrying up to {@code perConnection} extended CONNECT streams to {@code /ws},
 * every one answered {@code 200} before the next connection opens; then the sockets are left idle.
 */
final class H2WebSocketStreams {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0, HEADERS = 1, RST_STREAM = 3, SETTINGS = 4, GOAWAY = 7;

    private H2WebSocketStreams() {
    }

    /** Opens connections until {@code n} streams are open; returns the connections. */
    static List<Socket> open(InetSocketAddress target, int n, int perConnection) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int opened = 0; opened < n; ) {
            int k = Math.min(perConnection, n - opened);
            sockets.add(connection(target, k, sockets.size()));
            opened += k;
        }
        return sockets;
    }

    private static Socket connection(InetSocketAddress target, int streams, int index) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(target, 10_000);
        s.setSoTimeout(10_000);
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        w.writeBytes(PREFACE);
        frame(w, SETTINGS, 0, 0, new byte[0]);
        Encoder encoder = new Encoder(4096);
        String authority = target.getHostString() + ":" + target.getPort();
        for (int i = 0; i < streams; i++) {
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            String[] fields = {":method", "CONNECT", ":protocol", "websocket", ":scheme", "http", ":path",
                BenchServer.WS_PATH, ":authority", authority, "sec-websocket-version", "13"};
            for (int f = 0; f < fields.length; f += 2) {
                encoder.encodeHeader(block, fields[f].getBytes(StandardCharsets.ISO_8859_1),
                        fields[f + 1].getBytes(StandardCharsets.ISO_8859_1), false);
            }
            frame(w, HEADERS, 0x4, 1 + 2 * i, block.toByteArray()); // END_HEADERS, the stream stays open
        }
        out.write(w.toByteArray());
        out.flush();
        Decoder decoder = new Decoder(1 << 16, 4096);
        int answered = 0;
        while (answered < streams) {
            int len = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int id = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[len];
            in.readFully(payload);
            switch (type) {
                case SETTINGS -> {
                    if ((flags & 1) == 0) {
                        ByteArrayOutputStream ack = new ByteArrayOutputStream();
                        frame(ack, SETTINGS, 1, 0, new byte[0]);
                        out.write(ack.toByteArray());
                        out.flush();
                    }
                }
                case HEADERS -> {
                    String[] status = new String[1];
                    decoder.decode(new ByteArrayInputStream(payload), (name, value, sensitive) -> {
                        if (new String(name, StandardCharsets.ISO_8859_1).equals(":status")) {
                            status[0] = new String(value, StandardCharsets.ISO_8859_1);
                        }
                    });
                    decoder.endHeaderBlock();
                    if (!"200".equals(status[0]) || (flags & 1) != 0) {
                        throw new IOException("connection " + index + " stream " + id + ": refused with " + status[0]);
                    }
                    answered++;
                }
                case RST_STREAM, GOAWAY -> throw new IOException("connection " + index + ": frame type " + type);
                case DATA -> throw new IOException("connection " + index + ": unexpected DATA on stream " + id);
                default -> {
                    // WINDOW_UPDATE, PING: nothing to do for an idle client
                }
            }
        }
        return s;
    }

    private static void frame(ByteArrayOutputStream w, int type, int flags, int stream, byte[] payload) {
        int len = payload.length;
        w.write(len >>> 16);
        w.write(len >>> 8);
        w.write(len);
        w.write(type);
        w.write(flags);
        w.write(stream >>> 24);
        w.write(stream >>> 16);
        w.write(stream >>> 8);
        w.write(stream);
        w.writeBytes(payload);
    }
}
