package org.loommpm.testsupport;

import java.io.ByteArrayOutputStream;
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
 * A raw-socket HTTP/1.1 client for malformed input, pipelining and connection-state checks:
 * writes exactly the bytes given and parses responses itself.
 */
public final class RawHttp implements AutoCloseable {
    /** A parsed response; {@code statusLine} as received, without its line ending. */
    public record Response(int status, Map<String, String> headers, byte[] body, String statusLine) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private Map<String, String> trailers = new LinkedHashMap<>();

    public RawHttp(int port) throws IOException {
        this(port, 10_000);
    }

    public RawHttp(int port, int readTimeoutMs) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(readTimeoutMs);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Over a socket already connected (a TLS socket, say). */
    public RawHttp(Socket connected, int readTimeoutMs) throws IOException {
        socket = connected;
        socket.setSoTimeout(readTimeoutMs);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    public RawHttp send(String ascii) throws IOException {
        return send(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads one response (Content-Length, chunked, or close-delimited body). */
    public Response read() throws IOException {
        return read(false);
    }

    /** Reads one response to a HEAD request (no body whatever the headers say). */
    public Response readHead() throws IOException {
        return read(true);
    }

    private Response read(boolean head) throws IOException {
        trailers = new LinkedHashMap<>();
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        String[] parts = statusLine.split(" ", 3);
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while ((l = line()) != null && !l.isEmpty()) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim(),
                    (a, b) -> a + ", " + b);
        }
        if (head || status < 200 || status == 204 || status == 304) {
            return new Response(status, headers, new byte[0], statusLine);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String cl = headers.get("content-length");
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (;;) {
                String size = line();
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    readTrailers();
                    break;
                }
                body.write(in.readNBytes(n));
                line();
            }
        } else if (cl != null) {
            body.write(in.readNBytes(Integer.parseInt(cl)));
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(status, headers, body.toByteArray(), statusLine);
    }

    /**
     * One chunk of a chunked body whose head {@link #readHead()} read (a stream still open), as
     * text; {@code null} for the last chunk (its trailers read).
     */
    public String readChunk() throws IOException {
        String size = line();
        if (size == null) {
            throw new IOException("connection closed inside a chunked body");
        }
        int n = Integer.parseInt(size.split(";")[0].trim(), 16);
        if (n == 0) {
            readTrailers();
            return null;
        }
        byte[] data = in.readNBytes(n);
        line();
        return new String(data, StandardCharsets.UTF_8);
    }

    /**
     * Whether the server sent nothing and kept the connection open for {@code millis}: true only
     * when the read times out (any byte or EOF within the window makes it false).
     */
    public boolean silentFor(int millis) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            return in.read() == -2; // never: a byte or EOF both mean "not silent"
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            return false; // reset
        } finally {
            socket.setSoTimeout(old);
        }
    }

    /** Closes the write side only (the request is complete; responses can still be read). */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Exactly {@code n} raw bytes (fewer if the connection ends first). */
    public byte[] readBytes(int n) throws IOException {
        return in.readNBytes(n);
    }

    /** Whether the server closed the connection (EOF or reset) within the read timeout. */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset counts as closed
        }
    }

    /**
     * The trailer fields of the last chunked body read (names lower-case, repeated fields joined
     * with ", "); empty when it had none, or was not chunked.
     */
    public Map<String, String> trailers() {
        return trailers;
    }

    private void readTrailers() throws IOException {
        String l;
        while ((l = line()) != null && !l.isEmpty()) {
            int colon = l.indexOf(':');
            trailers.merge(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim(),
                    (a, b) -> a + ", " + b);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                byte[] a = b.toByteArray();
                int n = a.length > 0 && a[a.length - 1] == '\r' ? a.length - 1 : a.length;
                return new String(a, 0, n, StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    public Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
