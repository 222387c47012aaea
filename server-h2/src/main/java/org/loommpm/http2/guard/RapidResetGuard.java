package org.loommpm.http2.guard;

import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * Rapid reset (CVE-2023-44487) and its server-provoked variant "MadeYouReset" (CVE-2025-8671):
 * a client that opens streams and has them end at once makes the server start work that nobody
 * waits for, without ever hitting the concurrency limit. Every stream the client resets before
 * its response completed, every stream refused for exceeding the concurrency limit, and every
 * stream the server resets because the client broke a stream-level rule (a WINDOW_UPDATE of 0,
 * DATA beyond a window, a malformed request: anything that is a stream error) takes a token; the
 * bucket refills at {@code H2MaxResetsPerSecond} with bursts up to twice
 * {@code H2MaxConcurrentStreams}. An empty bucket is a connection error ENHANCE_YOUR_CALM (the
 * caller cancels the streams' handlers). Frame loop only.
 */
public final class RapidResetGuard {
    private final TokenBucket bucket;

    public RapidResetGuard(int resetsPerSecond, int maxConcurrentStreams, long nowNanos) {
        this.bucket = new TokenBucket(resetsPerSecond, Math.max(resetsPerSecond, 2 * maxConcurrentStreams), nowNanos);
    }

    /** Counts one stream cancelled or refused, or reset by the server for a client's error. */
    public void streamCancelled(long nowNanos) throws Http2Error {
        if (!bucket.take(nowNanos)) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "rapid reset: too many streams cancelled");
        }
    }
}
