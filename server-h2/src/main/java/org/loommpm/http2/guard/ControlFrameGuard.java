package org.loommpm.http2.guard;

import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * SETTINGS, PING and PRIORITY floods: each such frame from the client costs the server work (an
 * acknowledgement to queue and write) but nothing to the client. They take a token from a
 * bucket of {@code H2MaxControlFramesPerSecond} (burst the same); an empty bucket is a
 * connection error ENHANCE_YOUR_CALM. Frame loop only.
 */
public final class ControlFrameGuard {
    private final TokenBucket bucket;

    public ControlFrameGuard(int perSecond, long nowNanos) {
        this.bucket = new TokenBucket(perSecond, perSecond, nowNanos);
    }

    /** Counts one control frame of {@code type} (for the message). */
    public void controlFrame(String type, long nowNanos) throws Http2Error {
        if (!bucket.take(nowNanos)) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, type + " flood");
        }
    }
}
