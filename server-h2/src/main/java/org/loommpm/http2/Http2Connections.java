package org.loommpm.http2;

import java.lang.System.Logger.Level;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.api.InvocationType;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.RequestHead;
import org.loommpm.http.RequestPath;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.protocol.Http2Protocol;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;

/**
 * HTTP/2 for one generation of children: the engine dispatches every HTTP/2 connection here
 * (after HTTP/1.1 switched it: prior knowledge, {@code Upgrade: h2c}, or ALPN {@code h2}).
 * Each dispatch runs the connection's {@link Session} frame loop on the worker that owns the
 * connection; it uses only {@link ProtocolConnection}'s I/O methods, so it runs unchanged over TLS.
 * A cleartext connection with nothing in flight may instead be served by the poller that
 * claimed it, for a lone request to a non-blocking route ({@link #serveInline}).
 */
public final class Http2Connections implements Http2Protocol {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final ServerConfig config;
    private final Handler app;
    /**
     * {@code app.invocationType()}, taken on the first {@link #serveInline} (a connection's first
     * dispatch is a worker's, so a router is frozen by then); {@code null} before. Poller threads
     * only: racing pollers compute the same value.
     */
    private InvocationType appType;
    /** Calls the application's handler and counts each exchange, as for HTTP/1.1. */
    private final ExchangeRunner runner;
    private final long timeoutNanos;
    private final StreamingLimits streamingLimits;
    /** Bounds the handlers the frame loops run inline ({@link InlineRun}). */
    private final InlineWatch inlineWatch = new InlineWatch();

    /**
     * @param config the generation's settings ({@link ServerConfig#http2()} for the limits)
     * @param app the application's handler
     * @param observer told about every completed exchange, or {@code null}
     */
    public Http2Connections(ServerConfig config, Handler app, ExchangeObserver observer) {
        this.config = config;
        this.app = app;
        this.runner = new ExchangeRunner(app, observer);
        this.timeoutNanos = config.timeout().toNanos();
        this.streamingLimits = StreamingLimits.of(config);
    }

    @Override
    public void serve(ProtocolConnection c, int slot) {
        Session s = c.session(Session.class);
        if (s == null) {
            s = new Session(c, this);
            c.session(s);
            LOG.log(Level.DEBUG, "LM0701 {0} from {1}", s, c.remoteAddress());
        }
        s.serve(slot);
    }

    @Override
    public void serveUpgrade(ProtocolConnection c, int slot, RequestHead request, byte[] settings) {
        Session s = new Session(c, this);
        c.session(s);
        LOG.log(Level.DEBUG, "LM0701 {0} from {1} (Upgrade: h2c)", s, c.remoteAddress());
        try {
            s.upgrade(settings, upgradeRequest(request));
        } catch (Http2Error e) {
            LOG.log(Level.DEBUG, "LM0702 {0} invalid HTTP2-Settings: {1}", s, e.getMessage());
            c.handBackClose(CloseReason.ERROR);
            return;
        }
        s.serve(slot);
    }

    /** Until a connection has been served once the handler's type is not asked. */
    @Override
    public boolean servesInline() {
        return appType != InvocationType.BLOCKING;
    }

    /**
     * The poller's turn of the frame loop (see {@link org.loommpm.spi.ConnectionProtocol#serveInline}): declines a
     * connection that has no session yet (its preface and SETTINGS are a worker's) or that was
     * signalled (a suspended stream's answer, output left for a worker's loop: that loop takes
     * the signal), else {@link Session#serveOnPoller}.
     */
    @Override
    public boolean serveInline(ProtocolConnection c, SlotBoard board) {
        if (c.signalPending()) {
            return false;
        }
        InvocationType type = appType;
        if (type == null) {
            appType = type = app.invocationType();
        }
        Session s = c.session(Session.class);
        return type != InvocationType.BLOCKING && s != null && s.serveOnPoller(board);
    }

    /**
     * What to call for a request whose route never blocks ({@link Handler#nonBlockingHandler}:
     * the route found once, for the decision and the call), else {@code null}; its path normalised
     * as {@link Http2Request} does (one that does not normalise is a worker's 400).
     */
    Handler nonBlockingHandler(FieldBlock request) {
        if (appType == InvocationType.NON_BLOCKING) {
            return app;
        }
        String target = request.path();
        if (target == null || request.method() == null) {
            return null;
        }
        int q = target.indexOf('?');
        String path;
        try {
            path = RequestPath.of(q < 0 ? target : target.substring(0, q)).path();
        } catch (HttpException e) {
            return null;
        }
        return app.nonBlockingHandler(request.method(), path);
    }

    /** The upgraded HTTP/1.1 request as the fields of stream 1. */
    private static FieldBlock upgradeRequest(RequestHead head) {
        return FieldBlock.fromHttp1(head.method(), head.rawTarget(), head.host(), head.headers());
    }

    /** Idle HTTP/2 connections are ended with GOAWAY, not just closed. */
    @Override
    public boolean closesGracefully() {
        return true;
    }

    ServerConfig config() {
        return config;
    }

    ExchangeRunner runner() {
        return runner;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    InlineWatch inlineWatch() {
        return inlineWatch;
    }

    StreamingLimits streamingLimits() {
        return streamingLimits;
    }
}
