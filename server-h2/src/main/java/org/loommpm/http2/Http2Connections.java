package org.loommpm.http2;

import java.lang.System.Logger.Level;
import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.RequestHead;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.protocol.Http2Protocol;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.ProtocolConnection;

/**
 * HTTP/2 for one generation of children: the engine dispatches every HTTP/2 connection here
 * (after HTTP/1.1 switched it: prior knowledge, {@code Upgrade: h2c}, or ALPN {@code h2}).
 * Each dispatch runs the connection's {@link Session} frame loop on the worker that owns the
 * connection; it uses only {@link ProtocolConnection}'s I/O methods, so it runs unchanged over TLS.
 */
public final class Http2Connections implements Http2Protocol {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final ServerConfig config;
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
