package org.loommpm.observe.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A keep-alive HTTP/1.1 client that counts the exact bytes it sends and receives, so tests can
 * compare them with the server's byte counters. Responses must carry a Content-Length.
 */
final class CountingClient implements AutoCloseable {
    /** A response and its size on the wire. */
    record Response(int status, Map<String, String> headers, String body, long wireBytes) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    long sent;
    long received;

    CountingClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(20_000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends raw bytes (counted). */
    CountingClient send(String ascii) throws IOException {
        byte[] b = ascii.getBytes(StandardCharsets.ISO_8859_1);
        out.write(b);
        out.flush();
        sent += b.length;
        return this;
    }

    /** A GET with Host {@code x}, then its response. */
    Response get(String target) throws IOException {
        return send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
    }

    /** Reads one response with a Content-Length body. */
    Response read() throws IOException {
        long before = received;
        String status = line();
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while (!(l = line()).isEmpty()) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        if (body.length != length) {
            throw new IOException("short body");
        }
        received += length;
        return new Response(Integer.parseInt(status.split(" ")[1]), headers,
                new String(body, StandardCharsets.UTF_8), received - before);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            b.write(c);
        }
        received += b.size() + 1;
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    /** Reads (and drops) whatever comes until the server closes; false if it does not within 10 s. */
    boolean closedByServer() throws IOException {
        socket.setSoTimeout(10_000);
        byte[] skip = new byte[8192];
        try {
            while (in.read(skip) >= 0) {
                // discard
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        }
    }

    /** Closes with a reset (SO_LINGER 0) instead of a FIN. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
