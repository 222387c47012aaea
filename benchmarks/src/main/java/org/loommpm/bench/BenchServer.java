package org.loommpm.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * Starts one plaintext server for the side-by-side load harness:
 * {@code java -jar loom-mpm-bench.jar PORT [loom|helidon|jetty|netty|undertow|jdk]} ({@code jdk}: the JDK's
 * own {@code com.sun.net.httpserver}, a reference rather than a contender).
 *
 * <p>Every implementation answers {@code GET /plaintext} and {@code GET /} with
 * {@code 200 text/plain "Hello, World!"} (POST alike, the request body read and discarded),
 * {@code /ws} with a WebSocket echo of text and binary messages, each written the way its server's
 * documentation shows, and {@code GET /slow} with the same answer after a {@link #SLOW} pause (the overload test's
 * handler: a blocking sleep on the virtual-thread servers, a scheduled reply on Netty),
 * listens on {@link #bindAddress()}{@code :PORT} (loopback unless {@code -Dbench.host} says
 * otherwise), has TCP_NODELAY on, no access log, unlimited requests per
 * connection and an idle (keep-alive) timeout of {@link #IDLE_TIMEOUT}. Once bound it prints a
 * line {@code READY} and runs until the process is killed.
 */
public final class BenchServer {
    /** The response body of every implementation. */
    static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    /** The Content-Type of every implementation. */
    static final String CONTENT_TYPE = "text/plain";
    /** Idle keep-alive timeout of every implementation (the idle-memory test holds connections open). */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(300);
    /** How long {@code GET /slow} takes before it answers, standing in for a backend call. */
    static final Duration SLOW = Duration.ofMillis(20);
    /** The path of the slow handler. */
    static final String SLOW_PATH = "/slow";
    /** The WebSocket echo (text and binary; permessage-deflate where the server offers it). */
    static final String WS_PATH = "/ws";

    private BenchServer() {
    }

    /** The address every implementation binds unless {@code -Dbench.host} names another. */
    static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";

    /**
     * The address to bind: {@code -Dbench.host=ADDRESS} (e.g. {@code 0.0.0.0} for a client on
     * another machine), else loopback, so a benchmark run does not open an unauthenticated
     * server (with {@code /server-status}) to the network by default.
     */
    static String bindAddress() {
        return bindAddress(System.getProperty("bench.host"));
    }

    /** {@link #bindAddress()} for the property's value, {@code null} when unset. */
    static String bindAddress(String property) {
        return property == null || property.isBlank() ? DEFAULT_BIND_ADDRESS : property.strip();
    }

    /** The two paths every implementation serves. */
    static boolean servedPath(String path) {
        return path.equals("/plaintext") || path.equals("/");
    }

    /**
     * Event-loop (I/O) threads for the peers that size them (Netty, Undertow):
     * {@code BENCH_IO_THREADS} from the environment, else the processors this process may use
     * ({@code availableProcessors()} follows the {@code taskset} pin and the cgroup quota).
     */
    static int ioThreads() {
        String v = System.getenv("BENCH_IO_THREADS");
        return v == null || v.isBlank() ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(v.trim());
    }

    /** The slow handler's pause, on the calling (virtual) thread. */
    static void pause() {
        try {
            Thread.sleep(SLOW);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: java -jar loom-mpm-bench.jar PORT [loom|helidon|jetty|netty|undertow|jdk]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        String impl = args.length > 1 ? args[1].toLowerCase(Locale.ROOT) : "loom";
        String detail = switch (impl) {
            case "loom" -> LoomBench.start(port);
            case "helidon" -> HelidonBench.start(port);
            case "jetty" -> JettyBench.start(port);
            case "netty" -> NettyBench.start(port);
            case "undertow" -> UndertowBench.start(port);
            case "jdk" -> JdkBench.start(port);
            default -> {
                System.err.println("unknown server '" + impl + "': loom, helidon, jetty, netty, undertow or jdk");
                System.exit(2);
                yield null;
            }
        };
        System.out.println("server " + impl + " on " + bindAddress() + ":" + port + " (" + detail + "), java "
                + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPU(s)");
        System.out.println("READY");
        System.out.flush();
        // The servers' own threads keep running; park the main thread until the process is killed.
        Thread.currentThread().join();
    }
}
