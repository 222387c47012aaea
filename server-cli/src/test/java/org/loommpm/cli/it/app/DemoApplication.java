package org.loommpm.cli.it.app;

import java.nio.charset.StandardCharsets;
import org.loommpm.api.Application;
import org.loommpm.api.EventStream;
import org.loommpm.api.Router;
import org.loommpm.api.ServerSentEvent;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * The application {@code ApplicationIT} loads into the jar (packed into a jar of its own by the
 * test): an HTTP route that answers its {@code greeting} parameter and the serving process's
 * PID, an event stream of three events, and a WebSocket echo, each under {@code /app/} and
 * {@code /app/private/}. {@code ApplicationParam NAME fail yes} makes {@link #routes} throw.
 */
public final class DemoApplication implements Application {
    /** The service loader's constructor. */
    public DemoApplication() {
    }

    @Override
    public void routes(Router router, Context context) {
        if (context.parameter("fail", "no").equals("yes")) {
            throw new IllegalStateException("asked to fail");
        }
        String greeting = context.parameter("greeting", "hello");
        for (String base : new String[] {"/app", "/app/private"}) {
            router.get(base + "/hello", (req, res) -> res.header("Content-Type", "text/plain")
                    .send((greeting + " from " + context.name() + " pid " + ProcessHandle.current().pid() + "\n")
                            .getBytes(StandardCharsets.UTF_8)));
            router.get(base + "/events", (req, res) -> {
                EventStream events = res.eventStream();
                for (int i = 1; i <= 3; i++) {
                    events.send(ServerSentEvent.data("event " + i));
                }
                events.close();
            });
            router.websocket(base + "/ws", new WebSocketHandler() {
                @Override
                public void onText(WebSocketSession s, String text) {
                    s.sendText("echo " + text);
                }
            });
        }
    }
}
