package org.loommpm.config;

import java.time.Duration;

/**
 * HTTP/2 limits and abuse guards (server-h2), with their defaults; one {@link ServerConfig}
 * field. Directive names follow httpd's mod_http2 where it has one; {@code docs/http2.md} and
 * {@code docs/configuration.md} describe each. Immutable: derive changed copies with the
 * {@code with*} methods.
 *
 * @param maxConcurrentStreams {@code H2MaxConcurrentStreams} (mod_http2: {@code H2MaxSessionStreams}):
 *        streams a client may have open at once (announced as SETTINGS_MAX_CONCURRENT_STREAMS);
 *        streams beyond it are refused with RST_STREAM(REFUSED_STREAM)
 * @param windowSize {@code H2WindowSize}: the per-stream receive window announced
 *        (SETTINGS_INITIAL_WINDOW_SIZE); bounds the request body bytes buffered per stream
 * @param maxFrameSize {@code H2MaxFrameSize}: the largest frame payload accepted (SETTINGS_MAX_FRAME_SIZE)
 * @param maxHeaderListSize {@code H2MaxHeaderListSize}: bytes of decoded request header fields
 *        (names + values, SETTINGS_MAX_HEADER_LIST_SIZE); also bounds a compressed header block
 *        across CONTINUATION frames (twice this)
 * @param headerTableSize {@code H2HeaderTableSize}: HPACK dynamic table size for decoding
 *        (SETTINGS_HEADER_TABLE_SIZE)
 * @param settingsTimeout {@code H2SettingsTimeout}: how long the client has to acknowledge the
 *        server's SETTINGS before the connection ends with SETTINGS_TIMEOUT
 * @param maxResetsPerSecond {@code H2MaxResetsPerSecond}: streams a client may cancel (or have
 *        refused) per second on average, bursts up to twice {@code maxConcurrentStreams}; more
 *        ends the connection with ENHANCE_YOUR_CALM (rapid reset, CVE-2023-44487)
 * @param maxControlFramesPerSecond {@code H2MaxControlFramesPerSecond}: SETTINGS, PING and
 *        PRIORITY frames per second on average (bursts up to the same number); more ends the
 *        connection with ENHANCE_YOUR_CALM
 * @param maxEmptyFramesPerSecond {@code H2MaxEmptyFramesPerSecond}: DATA frames with neither
 *        payload nor END_STREAM, and empty CONTINUATION frames, per second on average
 * @param maxContinuationFrames {@code H2MaxContinuationFrames}: CONTINUATION frames one header
 *        block may span (CVE-2024-27316)
 * @param stallTimeout {@code H2StallTimeout}: how long a stream may wait on the client without
 *        progress, for flow-control window to send its response (then RST_STREAM CANCEL: a
 *        zero-window stall holds a stream, never a worker), or, its response sent, for the rest
 *        of a request nobody reads (then RST_STREAM NO_ERROR)
 * @param enableConnectProtocol {@code H2WebSocket}: announce SETTINGS_ENABLE_CONNECT_PROTOCOL
 *        (RFC 8441) and accept extended CONNECT, so clients open WebSockets over HTTP/2 streams;
 *        off, a request with {@code :protocol} is malformed (RST_STREAM PROTOCOL_ERROR)
 * @param maxOversizedHeadersPerMinute {@code H2MaxOversizedHeadersPerMinute}: header blocks over
 *        {@code maxHeaderListSize} (each answered 431, decoded up to the limit for nothing) one
 *        connection may send per minute on average, bursts up to the same number; more ends the
 *        connection with ENHANCE_YOUR_CALM
 */
public record Http2Settings(int maxConcurrentStreams, int windowSize, int maxFrameSize, int maxHeaderListSize,
                            int headerTableSize, Duration settingsTimeout, int maxResetsPerSecond,
                            int maxControlFramesPerSecond, int maxEmptyFramesPerSecond, int maxContinuationFrames,
                            Duration stallTimeout, boolean enableConnectProtocol, int maxOversizedHeadersPerMinute) {
    /**
     * The defaults. The header list limit is 32 KiB, nginx's bound on a whole request head (four
     * 8 KiB buffers, HTTP/1.1 and HTTP/2 alike since nginx 1.19.7): room for a request with
     * several kilobytes of cookies and tokens, half what a block over it used to cost to check and
     * decode, and a quarter of the compressed bytes a connection may make us hold in one block.
     */
    public static final Http2Settings DEFAULTS = new Http2Settings(100, 65_535, 16_384, 32_768, 4_096,
            Duration.ofSeconds(10), 100, 200, 100, 32, Duration.ofSeconds(60), true, 10);

    /** Checks every bound (RFC 9113 §6.5.2 for the announced settings). */
    public Http2Settings {
        range("H2MaxConcurrentStreams", maxConcurrentStreams, 1, Integer.MAX_VALUE);
        range("H2WindowSize", windowSize, 1, Integer.MAX_VALUE);
        range("H2MaxFrameSize", maxFrameSize, 16_384, 16_777_215);
        range("H2MaxHeaderListSize", maxHeaderListSize, 1_024, 16 << 20);
        range("H2HeaderTableSize", headerTableSize, 0, 1 << 20);
        if (settingsTimeout == null || settingsTimeout.isNegative() || settingsTimeout.isZero()) {
            throw new IllegalArgumentException("H2SettingsTimeout must be a positive duration, got " + settingsTimeout);
        }
        range("H2MaxResetsPerSecond", maxResetsPerSecond, 1, Integer.MAX_VALUE);
        range("H2MaxControlFramesPerSecond", maxControlFramesPerSecond, 1, Integer.MAX_VALUE);
        range("H2MaxEmptyFramesPerSecond", maxEmptyFramesPerSecond, 1, Integer.MAX_VALUE);
        range("H2MaxContinuationFrames", maxContinuationFrames, 1, 100_000);
        range("H2MaxOversizedHeadersPerMinute", maxOversizedHeadersPerMinute, 1, Integer.MAX_VALUE);
        if (stallTimeout == null || stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("H2StallTimeout must be a positive duration, got " + stallTimeout);
        }
    }

    private static void range(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + v);
        }
    }

    /**
     * {@return a copy with {@code H2MaxConcurrentStreams} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxConcurrentStreams(int v) {
        return new Http2Settings(v, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize, settingsTimeout,
                maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond, maxContinuationFrames,
                stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2WindowSize} changed}
     *
     * @param v the new value
     */
    public Http2Settings withWindowSize(int v) {
        return new Http2Settings(maxConcurrentStreams, v, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxFrameSize} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxFrameSize(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, v, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxHeaderListSize} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxHeaderListSize(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, v, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2HeaderTableSize} changed}
     *
     * @param v the new value
     */
    public Http2Settings withHeaderTableSize(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, v,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2SettingsTimeout} changed}
     *
     * @param v the new value
     */
    public Http2Settings withSettingsTimeout(Duration v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                v, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond, maxContinuationFrames,
                stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxResetsPerSecond} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxResetsPerSecond(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, v, maxControlFramesPerSecond, maxEmptyFramesPerSecond, maxContinuationFrames,
                stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxControlFramesPerSecond} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxControlFramesPerSecond(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, v, maxEmptyFramesPerSecond, maxContinuationFrames,
                stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxEmptyFramesPerSecond} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxEmptyFramesPerSecond(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, v, maxContinuationFrames, stallTimeout,
                enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxContinuationFrames} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxContinuationFrames(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond, v,
                stallTimeout, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2StallTimeout} changed}
     *
     * @param v the new value
     */
    public Http2Settings withStallTimeout(Duration v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, v, enableConnectProtocol, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2WebSocket} (SETTINGS_ENABLE_CONNECT_PROTOCOL) changed}
     *
     * @param v the new value
     */
    public Http2Settings withEnableConnectProtocol(boolean v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, v, maxOversizedHeadersPerMinute);
    }

    /**
     * {@return a copy with {@code H2MaxOversizedHeadersPerMinute} changed}
     *
     * @param v the new value
     */
    public Http2Settings withMaxOversizedHeadersPerMinute(int v) {
        return new Http2Settings(maxConcurrentStreams, windowSize, maxFrameSize, maxHeaderListSize, headerTableSize,
                settingsTimeout, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond,
                maxContinuationFrames, stallTimeout, enableConnectProtocol, v);
    }
}
