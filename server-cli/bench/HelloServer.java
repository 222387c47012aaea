import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;

/**
 * The core's hello route, for comparison with loom-mpm.jar serving a 13-byte file. Run with
 * {@code java -cp loom-mpm.jar HelloServer.java PORT} (source-file mode: nothing to build).
 * Same engine settings as the jar's benchmark configuration; no access log.
 */
public class HelloServer {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Router router = new Router().get("/hello", (req, res) -> res.send("Hello, World!"));
        LoomServer server = LoomServer.builder().listen("127.0.0.1", port)
                .configure(c -> c.maxKeepAliveRequests(0))
                .handler(router).start();
        System.out.println("listening on " + server.port());
        server.awaitStop();
    }
}
