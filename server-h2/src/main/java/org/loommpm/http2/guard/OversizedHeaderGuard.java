package org.loommpm.http2.guard;

import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * Header blocks over {@code H2MaxHeaderListSize}: each is answered 431 and the connection is
 * kept (the HPACK table stays in step), but the server decodes up to the limit, and checks up to
 * twice it compressed, for nothing: one connection repeating 120 KiB Huffman-coded blocks took
 * the server from the other clients (issue #50 item 7). Each such block (a request's or a
 * trailer section) takes a token from a bucket of {@code H2MaxOversizedHeadersPerMinute} (burst
 * the same: 10 by default, then one every 6 s); an empty bucket is a connection error
 * ENHANCE_YOUR_CALM. A client whose cookie outgrew the limit gets its 431s; one that keeps
 * sending them gets a few, then GOAWAY. A client that reconnects for a fresh bucket is stopped by
 * its address's charge ({@code http2.OversizedCharge}), which each such block also pays. Frame
 * loop only.
 */
public final class OversizedHeaderGuard {
    private final TokenBucket bucket;
    private final int perMinute;

    public OversizedHeaderGuard(int perMinute, long nowNanos) {
        this.bucket = new TokenBucket(perMinute / 60.0, perMinute, nowNanos);
        this.perMinute = perMinute;
    }

    /** Counts one header block whose fields exceeded the header-list limit. */
    public void oversized(long nowNanos) throws Http2Error {
        if (!bucket.take(nowNanos)) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "more than " + perMinute
                    + " header blocks over H2MaxHeaderListSize a minute");
        }
    }
}
