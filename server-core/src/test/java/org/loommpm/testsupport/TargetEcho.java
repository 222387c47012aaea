package org.loommpm.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw backend that answers every request with the target of its request line, as it read it,
 * and closes: what a proxy test compares ("what did the backend get?"). Nothing parses or
 * normalises the target on the way, as a real server would. On 127.0.0.1, an ephemeral port.
 */
public final class TargetEcho implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger connections = new AtomicInteger();

    private TargetEcho(ServerSocket socket) {
        this.socket = socket;
    }

    /**
     * @return a backend accepting on its own virtual thread
     * @throws IOException if it cannot bind
     */
    public static TargetEcho start() throws IOException {
        TargetEcho echo = new TargetEcho(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        Thread.ofVirtual().start(echo::acceptAll);
        return echo;
    }

    /** @return its port */
    public int port() {
        return socket.getLocalPort();
    }

    /** @return the connections it has accepted */
    public int connections() {
        return connections.get();
    }

    private void acceptAll() {
        while (!socket.isClosed()) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                return; // closed: the test ended
            }
            connections.incrementAndGet();
            Thread.ofVirtual().start(() -> answer(s));
        }
    }

    private static void answer(Socket s) {
        try (s) {
            String head = readHead(s.getInputStream());
            byte[] body = head.split(" ", 3)[1].getBytes(StandardCharsets.ISO_8859_1);
            s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(body);
        } catch (IOException | RuntimeException e) {
            // a request the proxy gave up on
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) >= 0; ) {
            b.write(c);
            if (b.size() >= 4 && b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                break;
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Sends {@code request} as written on a new connection to {@code port} of 127.0.0.1 and reads
     * the answer to its end.
     *
     * @param port where
     * @param request the bytes, as ISO-8859-1 text
     * @return the status and, for a 200, the body ("200 /app/x"); "no answer" when none came
     * @throws IOException if the connection fails
     */
    public static String exchange(int port, String request) throws IOException {
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
            c.setSoTimeout(10_000);
            c.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            if (answer.length() < 12) {
                return "no answer";
            }
            String status = answer.substring(9, 12);
            return status.equals("200") ? status + " " + answer.substring(answer.indexOf("\r\n\r\n") + 4) : status;
        }
    }

    /**
     * {@link #exchange} of {@code GET target} with {@code Host: localhost} and {@code Connection: close}.
     *
     * @param port where
     * @param target the request target, as written
     * @return as {@link #exchange}
     * @throws IOException if the connection fails
     */
    public static String get(int port, String target) throws IOException {
        return exchange(port, "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
