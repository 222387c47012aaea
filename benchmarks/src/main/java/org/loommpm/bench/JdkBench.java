package org.loommpm.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * The JDK's own {@code com.sun.net.httpserver} with a virtual thread per exchange: not a
 * contender (one dispatcher thread, no HTTP/2) but the floor a Java developer gets with nothing
 * on the class path, and the reference the jar issue's start-up target was set against. Its
 * tuning is by system properties, set here before the server class reads them: TCP_NODELAY on,
 * the shared idle timeout, no cap on idle connections.
 */
final class JdkBench {
    private JdkBench() {
    }

    static String start(int port) throws IOException {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        System.setProperty("sun.net.httpserver.idleInterval", Long.toString(BenchServer.IDLE_TIMEOUT.toSeconds()));
        System.setProperty("sun.net.httpserver.maxIdleConnections", Integer.toString(Integer.MAX_VALUE));
        HttpServer server = HttpServer.create(new InetSocketAddress(BenchServer.bindAddress(), port), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", JdkBench::handle);
        server.start();
        return "com.sun.net.httpserver, a virtual thread per exchange";
    }

    private static void handle(HttpExchange x) throws IOException {
        try (x) {
            String path = x.getRequestURI().getPath();
            if (path.equals(BenchServer.SLOW_PATH)) {
                BenchServer.pause();
            } else if (!BenchServer.servedPath(path)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            x.getRequestBody().transferTo(OutputStream.nullOutputStream());
            x.getResponseHeaders().set("Content-Type", BenchServer.CONTENT_TYPE);
            x.sendResponseHeaders(200, BenchServer.HELLO.length);
            x.getResponseBody().write(BenchServer.HELLO);
        }
    }
}
