package org.loommpm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.ServerStats;
import org.loommpm.engine.ChildListener;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.ExchangeObserver;

/** How features are composed around the application: by order, observers, start hook. */
class ServerFeatureTest {
    /** Appends its name to the body the inner handlers wrote, so the order shows in the answer. */
    private record Tag(String name, int order, List<String> calls) implements ServerFeature {
        @Override
        public int order() {
            return order;
        }

        @Override
        public Handler wrap(Handler handler, ServerStats stats) {
            return (req, res) -> {
                calls.add(name);
                handler.handle(req, res);
            };
        }

        @Override
        public void beforeStart(EngineStats engine, Consumer<ChildListener> childListeners) {
            calls.add("start " + name + ", children: " + engine.children().size());
        }
    }

    @Test
    void featuresWrapByOrderThenAsAddedAndAreToldBeforeTheStart() throws Exception {
        List<String> calls = new ArrayList<>();
        try (LoomServer server = LoomServer.builder().listen("127.0.0.1", 0)
                .feature(new Tag("outer", 10, calls))
                .feature(new Tag("inner-first", 0, calls))
                .feature(new Tag("inner-second", 0, calls))
                .handler((req, res) -> res.send("app"))
                .start();
             HttpClient client = HttpClient.newHttpClient()) {
            assertEquals(List.of("start inner-first, children: 0", "start inner-second, children: 0",
                    "start outer, children: 0"), calls, "told in order, before any child started");
            calls.clear();
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("app", r.body());
            assertEquals(List.of("outer", "inner-second", "inner-first"), calls, "the highest order sees it first");
        }
    }

    @Test
    void twoObserversAreRefused() {
        ServerFeature observing = new ServerFeature() {
            @Override
            public ExchangeObserver observer() {
                return (protocol, method, status, bytesIn, bytesOut, nanos) -> { };
            }
        };
        assertThrows(IllegalArgumentException.class, () -> LoomServer.builder().listen("127.0.0.1", 0)
                .feature(observing).feature(observing).start());
    }
}
