package org.loommpm.spi;

import java.util.concurrent.atomic.LongAdder;

/**
 * Server-wide counts kept by the protocol layers above the engine, across every generation (so
 * they only grow, as metrics counters must): TLS handshakes by outcome and HTTP/2 connections,
 * streams, GOAWAYs and abuse guards, suspended exchanges and event streams, WebSockets and their
 * messages, proxy tunnels (the "now" gauges are differences of two such counts). Owned by the engine's supervisor; the protocols reach it
 * through {@link ChildServices#counters()}. Any thread increments (LongAdder cells: no contention
 * on the hot path); readers (metrics, status, tests) see sums that are exact once traffic stops.
 */
public final class ProtocolCounters {
    /** Counts that stay zero: for stats views that have no protocol layer behind them. */
    public static final ProtocolCounters NONE = new ProtocolCounters();

    private final LongAdder tlsHandshakes = new LongAdder();
    private final LongAdder tlsFailures = new LongAdder();
    private final LongAdder tlsPlaintext = new LongAdder();
    private final LongAdder h2Connections = new LongAdder();
    private final LongAdder streamsStarted = new LongAdder();
    private final LongAdder streamsInline = new LongAdder();
    private final LongAdder responsesCompleted = new LongAdder();
    private final LongAdder streamsReset = new LongAdder();
    private final LongAdder streamsRefused = new LongAdder();
    private final LongAdder streamsStalled = new LongAdder();
    private final LongAdder goawaysSent = new LongAdder();
    private final LongAdder goawaysReceived = new LongAdder();
    private final LongAdder guardsTripped = new LongAdder();
    private final LongAdder webSocketsOpened = new LongAdder();
    private final LongAdder webSocketsClosed = new LongAdder();
    private final LongAdder webSocketMessagesIn = new LongAdder();
    private final LongAdder webSocketMessagesOut = new LongAdder();
    private final LongAdder suspended = new LongAdder();
    private final LongAdder suspendedEnded = new LongAdder();
    private final LongAdder eventStreams = new LongAdder();
    private final LongAdder eventStreamsEnded = new LongAdder();
    private final LongAdder suspendTimeouts = new LongAdder();
    private final LongAdder tunnelsOpened = new LongAdder();
    private final LongAdder tunnelsClosed = new LongAdder();

    /** Counts at zero (the supervisor keeps one for the server's lifetime). */
    public ProtocolCounters() {
    }

    /** A TLS handshake completed. */
    public void tlsHandshakeCompleted() { tlsHandshakes.increment(); }
    /** A TLS handshake failed (bad ClientHello, alert, peer gone mid-handshake). */
    public void tlsHandshakeFailed() { tlsFailures.increment(); }
    /** A plaintext HTTP request arrived on a TLS port (answered 400). */
    public void tlsPlaintextRejected() { tlsPlaintext.increment(); }
    /** An HTTP/2 connection started (prior knowledge, upgrade or ALPN). */
    public void http2ConnectionOpened() { h2Connections.increment(); }
    /** An HTTP/2 stream's handler task was started. */
    public void streamStarted() { streamsStarted.increment(); }
    /** An HTTP/2 stream's handler ran on its connection's frame loop (no task of its own); also counted as started. */
    public void http2InlineStream() { streamsInline.increment(); }
    /** An HTTP/2 response's last frame was written. */
    public void responseCompleted() { responsesCompleted.increment(); }
    /** The client reset an HTTP/2 stream. */
    public void streamReset() { streamsReset.increment(); }
    /** An HTTP/2 stream was refused by H2MaxConcurrentStreams. */
    public void streamRefused() { streamsRefused.increment(); }
    /** An HTTP/2 stream was reset after waiting H2StallTimeout for the client's window. */
    public void streamStalled() { streamsStalled.increment(); }
    /** The server sent GOAWAY (stop, idle timeout, connection error). */
    public void goawaySent() { goawaysSent.increment(); }
    /** The client sent GOAWAY. */
    public void goawayReceived() { goawaysReceived.increment(); }
    /** An HTTP/2 abuse guard ended a connection (ENHANCE_YOUR_CALM). */
    public void guardTripped() { guardsTripped.increment(); }

    /** A WebSocket opened (handshake answered 101). */
    public void webSocketOpened() { webSocketsOpened.increment(); }
    /** A WebSocket ended (any path). */
    public void webSocketClosed() { webSocketsClosed.increment(); }
    /** A whole WebSocket message arrived from a client. */
    public void webSocketMessageReceived() { webSocketMessagesIn.increment(); }
    /** A WebSocket message was queued for a client. */
    public void webSocketMessageSent() { webSocketMessagesOut.increment(); }
    /**
     * An exchange was suspended ({@code Response.suspend}), or an event stream started.
     *
     * @param eventStream whether it is an event stream
     */
    public void exchangeSuspended(boolean eventStream) {
        (eventStream ? eventStreams : suspended).increment();
    }
    /**
     * A suspended exchange or event stream ended (answered, timed out, client gone, stopped).
     *
     * @param eventStream whether it was an event stream
     */
    public void suspendedEnded(boolean eventStream) {
        (eventStream ? eventStreamsEnded : suspendedEnded).increment();
    }
    /** A suspended exchange passed its deadline. */
    public void suspendTimedOut() { suspendTimeouts.increment(); }
    /** A proxied upgrade became a tunnel (the backend answered 101). */
    public void proxyTunnelOpened() { tunnelsOpened.increment(); }
    /** A proxy tunnel ended (any path). */
    public void proxyTunnelClosed() { tunnelsClosed.increment(); }

    /** {@return TLS handshakes completed} */
    public long tlsHandshakes() { return tlsHandshakes.sum(); }
    /** {@return TLS handshakes failed} */
    public long tlsHandshakeFailures() { return tlsFailures.sum(); }
    /** {@return plaintext requests refused on TLS ports} */
    public long tlsPlaintextRequests() { return tlsPlaintext.sum(); }
    /** {@return HTTP/2 connections started} */
    public long http2Connections() { return h2Connections.sum(); }
    /** {@return HTTP/2 streams whose handler started} */
    public long streamsStarted() { return streamsStarted.sum(); }
    /** {@return HTTP/2 streams whose handler ran inline on the connection's frame loop (a subset of the started ones)} */
    public long streamsInline() { return streamsInline.sum(); }
    /** {@return HTTP/2 responses completed} */
    public long responsesCompleted() { return responsesCompleted.sum(); }
    /** {@return HTTP/2 streams reset by clients} */
    public long streamsReset() { return streamsReset.sum(); }
    /** {@return HTTP/2 streams refused} */
    public long streamsRefused() { return streamsRefused.sum(); }
    /** {@return HTTP/2 streams reset for a stalled flow-control window} */
    public long streamsStalled() { return streamsStalled.sum(); }
    /** {@return GOAWAY frames sent} */
    public long goawaysSent() { return goawaysSent.sum(); }
    /** {@return GOAWAY frames received} */
    public long goawaysReceived() { return goawaysReceived.sum(); }
    /** {@return connections ended by an HTTP/2 abuse guard} */
    public long guardsTripped() { return guardsTripped.sum(); }
    /** {@return WebSockets opened} */
    public long webSocketsOpened() { return webSocketsOpened.sum(); }
    /** {@return WebSockets ended} */
    public long webSocketsClosed() { return webSocketsClosed.sum(); }
    /** {@return WebSockets open now (opened minus ended; exact once traffic stops)} */
    public long webSocketsOpen() { return webSocketsOpened.sum() - webSocketsClosed.sum(); }
    /** {@return WebSocket messages received} */
    public long webSocketMessagesReceived() { return webSocketMessagesIn.sum(); }
    /** {@return WebSocket messages sent} */
    public long webSocketMessagesSent() { return webSocketMessagesOut.sum(); }
    /** {@return exchanges suspended so far (event streams not included)} */
    public long suspendedTotal() { return suspended.sum(); }
    /** {@return suspended exchanges waiting for their answer now (a gauge; exact once traffic stops)} */
    public long suspendedNow() { return suspended.sum() - suspendedEnded.sum(); }
    /** {@return event streams started so far} */
    public long eventStreamsTotal() { return eventStreams.sum(); }
    /** {@return event streams open now (a gauge; exact once traffic stops)} */
    public long eventStreamsNow() { return eventStreams.sum() - eventStreamsEnded.sum(); }
    /** {@return suspended exchanges that passed their deadline} */
    public long suspendTimeouts() { return suspendTimeouts.sum(); }
    /** {@return proxy tunnels opened so far} */
    public long proxyTunnelsOpened() { return tunnelsOpened.sum(); }
    /** {@return proxy tunnels open now (a gauge; exact once traffic stops)} */
    public long proxyTunnelsOpen() { return tunnelsOpened.sum() - tunnelsClosed.sum(); }
}
