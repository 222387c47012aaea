package org.loommpm.websocket;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A WebSocket route's handler and what its handshake accepts: subprotocols, an origin check,
 * and whether permessage-deflate may be agreed. Immutable; each {@code with*} returns a copy.
 * Limits and timers are server-wide ({@code config.WebSocketSettings}).
 *
 * <pre>{@code
 * router.websocket("/chat/{room}", WebSocketEndpoint.of(new ChatHandler())
 *         .withSubprotocols("chat.v2", "chat.v1")
 *         .withOriginCheck(origin -> "https://example.com".equals(origin)));
 * }</pre>
 *
 * @param handler the application's code for the route's sockets
 * @param subprotocols the subprotocols the endpoint speaks; the client's first one listed here is
 *        chosen, and none when none matches (the client then decides whether to go on)
 * @param originCheck given the {@code Origin} field (or {@code null} when absent), whether to
 *        accept the handshake; {@code null} accepts every origin. Browsers send {@code Origin};
 *        checking it is how a server stops other sites' pages from opening sockets with their
 *        visitors' cookies (cross-site WebSocket hijacking)
 * @param deflate whether permessage-deflate may be agreed (also subject to {@code WebSocketDeflate})
 * @param contextTakeover whether the server keeps its compressor's window between messages when
 *        the client allows it: better ratios for similar messages, at about 300 KB of native
 *        memory per open socket; off by default
 */
public record WebSocketEndpoint(WebSocketHandler handler, List<String> subprotocols, Predicate<String> originCheck,
                                boolean deflate, boolean contextTakeover) {
    /** Checks the handler and copies the list. */
    public WebSocketEndpoint {
        Objects.requireNonNull(handler, "handler");
        subprotocols = List.copyOf(subprotocols);
    }

    /**
     * {@return an endpoint accepting any origin, no subprotocol, deflate allowed without context
     * takeover}
     *
     * @param handler the application's code for the route's sockets
     */
    public static WebSocketEndpoint of(WebSocketHandler handler) {
        return new WebSocketEndpoint(handler, List.of(), null, true, false);
    }

    /**
     * {@return a copy speaking these subprotocols} They form the server's list; the client's order
     * decides which is chosen.
     *
     * @param names the subprotocol names
     */
    public WebSocketEndpoint withSubprotocols(String... names) {
        return new WebSocketEndpoint(handler, List.of(names), originCheck, deflate, contextTakeover);
    }

    /**
     * {@return a copy with an origin check}
     *
     * @param check given the {@code Origin} field (or {@code null} when absent), whether to accept
     *        the handshake; {@code null} accepts every origin
     */
    public WebSocketEndpoint withOriginCheck(Predicate<String> check) {
        return new WebSocketEndpoint(handler, subprotocols, check, deflate, contextTakeover);
    }

    /**
     * {@return a copy allowing or refusing permessage-deflate}
     *
     * @param on whether permessage-deflate may be agreed
     */
    public WebSocketEndpoint withDeflate(boolean on) {
        return new WebSocketEndpoint(handler, subprotocols, originCheck, on, contextTakeover);
    }

    /**
     * {@return a copy allowing or refusing compressor context takeover}
     *
     * @param on whether the server keeps its compressor's window between messages
     */
    public WebSocketEndpoint withContextTakeover(boolean on) {
        return new WebSocketEndpoint(handler, subprotocols, originCheck, deflate, on);
    }
}
