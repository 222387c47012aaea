package org.loommpm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import org.loommpm.api.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.ServerConfig;

/**
 * {@code java -jar loom-mpm.jar}: serves the embedded default (a welcome page on port 8080)
 * until SIGTERM or SIGINT, which stop it gracefully.
 */
public final class Main {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private Main() {
    }

    /**
     * @param args {@code -v} prints the version, {@code -h} the usage; no arguments serves the default
     */
    public static void main(String[] args) throws Exception {
        for (String a : args) {
            switch (a) {
                case "-v" -> {
                    System.out.println("loom-mpm " + version());
                    return;
                }
                case "-h" -> {
                    usage(System.out);
                    return;
                }
                default -> {
                    System.err.println("loom-mpm: unknown option '" + a + "'");
                    usage(System.err);
                    System.exit(2);
                }
            }
        }
        byte[] welcome = resource("welcome.html");
        Router router = new Router().get("/", (req, res) -> {
            res.header("Content-Type", "text/html; charset=UTF-8");
            res.send(welcome);
        });
        ServerConfig config = ServerConfig.builder().build();
        LoomServer server = LoomServer.builder().config(config).handler(router).start();
        for (InetSocketAddress a : server.addresses()) {
            String host = a.getAddress().isAnyLocalAddress() ? "localhost" : a.getHostString();
            System.out.println("loom-mpm " + version() + " listening on http://" + host + ":" + a.getPort() + "/");
        }
        System.out.println("config: embedded default (StartServers " + config.startServers() + ", ThreadsPerChild "
                + config.threadsPerChild() + ", PollersPerChild " + config.effectivePollersPerChild()
                + ", KeepAliveTimeout " + config.keepAliveTimeout().toSeconds() + "s)");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.log(Level.INFO, "LM0011 signal received: stopping gracefully");
            server.close();
        }, "loom-shutdown"));
        server.awaitStop();
    }

    private static void usage(PrintStream out) {
        out.println("usage: java -jar loom-mpm.jar [-v] [-h]");
        out.println("  (no options)  serve the embedded default on http://localhost:8080/");
        out.println("  -v            print the version and exit");
        out.println("  -h            print this help and exit");
    }

    private static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = Main.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return in.readAllBytes();
        }
    }
}
