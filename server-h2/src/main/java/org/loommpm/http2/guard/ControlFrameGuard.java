package org.loommpm.http2.guard;

import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * Floods of frames that cost the server work and the client nothing: SETTINGS, PING and
 * PRIORITY, WINDOW_UPDATE frames that open a window by less than {@link #SMALL_WINDOW_UPDATE}
 * bytes (a +1 flood on stream 0 or on a stream; real clients return credit in large steps),
 * and WINDOW_UPDATE or RST_STREAM frames for streams that are already closed. Each takes a token
 * from a bucket of {@code H2MaxControlFramesPerSecond} (burst the same); an empty bucket is a
 * connection error ENHANCE_YOUR_CALM. Frames crossing a stream's end are normal (a client's
 * WINDOW_UPDATE and cancel sent before it saw our END_STREAM), so every stream that closes gives
 * two tokens back ({@link #streamClosed}): a busy client is never cut off for those, while a flood
 * of them without new streams, which cost the client requests, is. Frame loop only.
 */
public final class ControlFrameGuard {
    /** A WINDOW_UPDATE increment below this counts as a control frame (no client needs to send one). */
    public static final int SMALL_WINDOW_UPDATE = 1024;

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

    /** A stream closed: two late frames for it are allowed (up to the burst). */
    public void streamClosed() {
        bucket.giveBack(2);
    }
}
