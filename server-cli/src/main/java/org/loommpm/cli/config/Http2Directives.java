package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import org.loommpm.config.Http2Settings;

/**
 * The HTTP/2 directives ({@link Http2Settings}): limits and abuse guards, named after httpd's
 * mod_http2 where it has the setting ({@code H2MaxSessionStreams} is accepted for
 * {@code H2MaxConcurrentStreams}, {@code H2WindowSize}). Values out of range are errors.
 */
final class Http2Directives {
    private Http2Directives() {
    }

    /** The settings read so far in one configuration (a {@link ParseState} extension). */
    private static final class Current {
        Http2Settings value = Http2Settings.DEFAULTS;
    }

    enum D implements DirectiveTable.Action {
        MAX_CONCURRENT_STREAMS("H2MaxConcurrentStreams"),
        MAX_SESSION_STREAMS("H2MaxSessionStreams"),
        WINDOW_SIZE("H2WindowSize"),
        MAX_FRAME_SIZE("H2MaxFrameSize"),
        MAX_HEADER_LIST_SIZE("H2MaxHeaderListSize"),
        HEADER_TABLE_SIZE("H2HeaderTableSize"),
        SETTINGS_TIMEOUT("H2SettingsTimeout", "seconds"),
        MAX_RESETS_PER_SECOND("H2MaxResetsPerSecond"),
        MAX_CONTROL_FRAMES_PER_SECOND("H2MaxControlFramesPerSecond"),
        MAX_EMPTY_FRAMES_PER_SECOND("H2MaxEmptyFramesPerSecond"),
        MAX_CONTINUATION_FRAMES("H2MaxContinuationFrames"),
        STALL_TIMEOUT("H2StallTimeout", "seconds"),
        WEBSOCKET("H2WebSocket", "On|Off"),
        MAX_OVERSIZED_HEADERS_PER_MINUTE("H2MaxOversizedHeadersPerMinute");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Current cur = s.extension("http2", Current::new);
            Http2Settings h = cur.value;
            try {
                cur.value = switch (this) {
                    case MAX_CONCURRENT_STREAMS, MAX_SESSION_STREAMS ->
                            h.withMaxConcurrentStreams(Args.intArg(l, 1, Integer.MAX_VALUE));
                    case WINDOW_SIZE -> h.withWindowSize(Args.intArg(l, 1, Integer.MAX_VALUE));
                    case MAX_FRAME_SIZE -> h.withMaxFrameSize(Args.intArg(l, 16_384, 16_777_215));
                    case MAX_HEADER_LIST_SIZE -> h.withMaxHeaderListSize(Args.intArg(l, 1_024, 16 << 20));
                    case HEADER_TABLE_SIZE -> h.withHeaderTableSize(Args.intArg(l, 0, 1 << 20));
                    case SETTINGS_TIMEOUT -> h.withSettingsTimeout(Args.duration(l, l.args().get(0), false));
                    case MAX_RESETS_PER_SECOND -> h.withMaxResetsPerSecond(Args.intArg(l, 1, Integer.MAX_VALUE));
                    case MAX_CONTROL_FRAMES_PER_SECOND ->
                            h.withMaxControlFramesPerSecond(Args.intArg(l, 1, Integer.MAX_VALUE));
                    case MAX_EMPTY_FRAMES_PER_SECOND ->
                            h.withMaxEmptyFramesPerSecond(Args.intArg(l, 1, Integer.MAX_VALUE));
                    case MAX_CONTINUATION_FRAMES -> h.withMaxContinuationFrames(Args.intArg(l, 1, 100_000));
                    case STALL_TIMEOUT -> h.withStallTimeout(Args.duration(l, l.args().get(0), false));
                    case WEBSOCKET -> h.withEnableConnectProtocol(Args.onOff(l));
                    case MAX_OVERSIZED_HEADERS_PER_MINUTE ->
                            h.withMaxOversizedHeadersPerMinute(Args.intArg(l, 1, Integer.MAX_VALUE));
                };
            } catch (IllegalArgumentException e) {
                throw l.error(e.getMessage());
            }
            s.engine.http2(cur.value);
        }

        final DirectiveSpec spec;

        /** Most take a number. */
        D(String name) {
            this(name, "number");
        }

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
