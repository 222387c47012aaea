package org.loommpm.websocket.it;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw-socket WebSocket client for conformance tests: writes exactly the bytes given (frames
 * from {@code ClientFrames}) and parses the server's handshake answer and frames itself.
 */
final class RawWebSocket implements AutoCloseable {
    /** The handshake answer. */
    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A server frame. */
    record Frame(int b0, byte[] payload) {
        int opcode() {
            return b0 & 0x0F;
        }

        boolean rsv1() {
            return (b0 & 0x40) != 0;
        }

        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** A close frame's code (1005 for none). */
        int closeCode() {
            return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
        }
    }

    static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawWebSocket(int port) throws IOException {
        this(port, 10_000);
    }

    RawWebSocket(int port, int readTimeoutMs) throws IOException {
        this(new Socket(), port, readTimeoutMs);
    }

    RawWebSocket(Socket s, int port, int readTimeoutMs) throws IOException {
        socket = s;
        if (!socket.isConnected()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        }
        socket.setSoTimeout(readTimeoutMs);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** A valid handshake request for {@code path} plus {@code extra} header lines (each ending CRLF). */
    static String request(String path, String extra) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n" + extra + "\r\n";
    }

    /** Sends a valid handshake and reads the answer. */
    Answer handshake(String path, String extra) throws IOException {
        send(request(path, extra).getBytes(StandardCharsets.ISO_8859_1));
        return answer();
    }

    RawWebSocket send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads a response head (and a Content-Length body). */
    Answer answer() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("closed in the head: " + head);
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        String body = "";
        if (headers.containsKey("content-length")) {
            body = new String(in.readNBytes(Integer.parseInt(headers.get("content-length"))), StandardCharsets.UTF_8);
        }
        return new Answer(status, headers, body);
    }

    /** Reads one server frame; checks that it is not masked. */
    Frame frame() throws IOException {
        int b0 = read();
        int b1 = read();
        if ((b1 & 0x80) != 0) {
            throw new IOException("server frame is masked");
        }
        long len = b1 & 0x7F;
        if (len == 126) {
            len = (read() << 8) | read();
        } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = (len << 8) | read();
            }
        }
        return new Frame(b0, in.readNBytes((int) len));
    }

    private int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("server closed");
        }
        return b;
    }

    /** Whether the server closes the connection (reads to the end, dropping anything else) within the read timeout. */
    boolean closedByServer() {
        try {
            while (in.read() >= 0) {
                // drain
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // a reset also ends it
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
