package org.loommpm.cli.it;

import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;

/**
 * An application embedding loom-mpm, for {@link ModulePathIT}: it runs from the class path while
 * server-core (and, in the full set, server-h2 and the feature modules) are on the module path,
 * serves {@code /hello} on 127.0.0.1 (an ephemeral port) until it is killed, and says what it
 * sees of the modules.
 */
public final class ModuleApp {
    private ModuleApp() {
    }

    public static void main(String[] args) throws Exception {
        Module core = LoomServer.class.getModule();
        Module app = ModuleApp.class.getModule();
        System.out.println("core module: " + core.getName());
        System.out.println("h2 module: " + ModuleLayer.boot().findModule("org.loommpm.h2").isPresent());
        System.out.println("api exported: " + core.isExported("org.loommpm.api", app));
        System.out.println("engine exported: " + core.isExported("org.loommpm.engine", app));
        System.out.println("micrometer: " + present("io.micrometer.core.instrument.MeterRegistry"));
        System.out.println("websocket: " + present("org.loommpm.websocket.server.UpgradeHandler"));
        System.out.println("proxy: " + present("org.loommpm.proxy.ProxyHandler"));
        LoomServer server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(8))
                .handler(new Router().get("/hello", (req, res) -> res.send("Hello, modules!")))
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("listening on http://127.0.0.1:" + server.port() + "/");
        server.awaitStop();
    }

    /** Whether {@code name} can be loaded at all (on the module path or the class path). */
    private static boolean present(String name) {
        try {
            Class.forName(name, false, ModuleApp.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
