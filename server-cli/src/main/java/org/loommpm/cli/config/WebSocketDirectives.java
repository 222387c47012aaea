package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import org.loommpm.config.WebSocketSettings;

/**
 * The WebSocket directives ({@link WebSocketSettings}, whose {@code DEFAULTS} are the defaults):
 * {@code WebSocketMaxFrameSize}, {@code WebSocketMaxMessageSize}, {@code WebSocketIdleTimeout},
 * {@code WebSocketPingInterval}, {@code WebSocketDeflate}. They govern the WebSocket routes of the
 * applications the jar serves ({@code LoadApplication}). Values out of range are errors.
 */
final class WebSocketDirectives {
    private WebSocketDirectives() {
    }

    /** The settings read so far in one configuration (a {@link ParseState} extension). */
    private static final class Current {
        WebSocketSettings value = WebSocketSettings.DEFAULTS;
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        MAX_FRAME_SIZE("WebSocketMaxFrameSize", "bytes"),
        MAX_MESSAGE_SIZE("WebSocketMaxMessageSize", "bytes"),
        IDLE_TIMEOUT("WebSocketIdleTimeout", "time"),
        PING_INTERVAL("WebSocketPingInterval", "time"),
        DEFLATE("WebSocketDeflate", "On|Off");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Current cur = s.extension("websocket", Current::new);
            WebSocketSettings v = cur.value;
            cur.value = switch (this) {
                case MAX_FRAME_SIZE -> v.withMaxFrameSize(Args.intArg(l, 125, Integer.MAX_VALUE));
                case MAX_MESSAGE_SIZE -> v.withMaxMessageSize(Args.intArg(l, 125, Integer.MAX_VALUE));
                case IDLE_TIMEOUT -> v.withIdleTimeout(Args.duration(l, l.args().get(0), false));
                case PING_INTERVAL -> v.withPingInterval(Args.duration(l, l.args().get(0), true));
                case DEFLATE -> v.withDeflate(Args.onOff(l));
            };
            s.engine.webSocket(cur.value);
        }

        final DirectiveSpec spec;

        D(String name, String syntax) {
            spec = new DirectiveSpec(name, 1, 1, SERVER, syntax);
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
