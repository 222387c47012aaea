package org.loommpm.http2.guard;

/**
 * A token bucket: {@code ratePerSecond} tokens refill per second up to {@code burst}; each
 * counted event takes one. Confined to one connection's frame loop (no synchronisation).
 */
final class TokenBucket {
    private final double ratePerNano;
    private final double burst;
    private double tokens;
    private long last;

    TokenBucket(double ratePerSecond, int burst, long nowNanos) {
        this.ratePerNano = ratePerSecond / 1e9;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token; {@code false} when the bucket is empty (the rate was exceeded). */
    boolean take(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * ratePerNano);
            last = nowNanos;
        }
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /** Returns {@code n} tokens (never above the burst). */
    void giveBack(int n) {
        tokens = Math.min(burst, tokens + n);
    }
}
