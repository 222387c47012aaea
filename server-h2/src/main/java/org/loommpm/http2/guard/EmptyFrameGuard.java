package org.loommpm.http2.guard;

import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * Empty-frame floods: DATA frames with no payload and no END_STREAM (and empty CONTINUATION
 * frames) carry nothing and are not flow-controlled, so they are free for the client and not
 * for the server. They take a token from a bucket of {@code H2MaxEmptyFramesPerSecond}; an empty
 * bucket is a connection error ENHANCE_YOUR_CALM. Frame loop only.
 */
public final class EmptyFrameGuard {
    private final TokenBucket bucket;

    public EmptyFrameGuard(int perSecond, long nowNanos) {
        this.bucket = new TokenBucket(perSecond, perSecond, nowNanos);
    }

    /** Counts one frame that carried nothing. */
    public void emptyFrame(long nowNanos) throws Http2Error {
        if (!bucket.take(nowNanos)) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "flood of empty frames");
        }
    }
}
