package org.loommpm.config;

import java.time.Duration;

/**
 * The bound on what clients make the server hold in memory, and the WebSocket message deadline,
 * with their defaults; one {@link ServerConfig} field. Immutable: derive changed copies with the
 * {@code with*} methods. {@code docs/configuration.md} describes each, {@code docs/architecture.md}
 * ("The input budget") the design.
 *
 * @param bytes {@code InputBudget} given as a size: the bytes each child may hold for its
 *        clients at once (WebSocket messages being assembled, HTTP/2 header blocks, request
 *        bodies read whole); 0 when it is given as a share of the heap instead
 * @param heapPercent {@code InputBudget} given as {@code N%}: the share of the JVM's maximum
 *        heap the children that start together ({@code StartServers}) divide between them; used
 *        when {@code bytes} is 0
 * @param webSocketMessageTimeout {@code WebSocketMessageTimeout}: how long a client may take to
 *        finish a WebSocket message once its first fragment arrived; fragments do not extend it,
 *        an unfinished message past it closes the socket with 1008
 */
public record InputBudgetSettings(long bytes, int heapPercent, Duration webSocketMessageTimeout) {
    /**
     * The defaults: a quarter of the heap, and 30 s to finish a message. A quarter leaves three
     * quarters to what the server holds anyway (connections, response buffers, the application's
     * own data) and to the collector's headroom, so a refused client is answered long before the
     * heap runs out. 30 s lets a slow mobile link send a full 1 MiB message (about 35 KB/s),
     * while a socket that dribbles fragments holds its message for at most that, not for the idle
     * timeout (5 minutes), which each fragment restarts.
     */
    public static final InputBudgetSettings DEFAULTS = new InputBudgetSettings(0, 25, Duration.ofSeconds(30));

    /** The smallest budget: one default-sized WebSocket message and some header blocks beside it. */
    public static final long MIN_BYTES = 1 << 20;

    /** Checks every bound. */
    public InputBudgetSettings {
        if (bytes != 0 && bytes < MIN_BYTES) {
            throw new IllegalArgumentException("InputBudget must be at least " + MIN_BYTES + " bytes, got " + bytes);
        }
        if (bytes == 0 && (heapPercent < 1 || heapPercent > 90)) {
            throw new IllegalArgumentException("InputBudget as a share of the heap must be 1% to 90%, got "
                    + heapPercent + "%");
        }
        if (webSocketMessageTimeout == null || webSocketMessageTimeout.isNegative()
                || webSocketMessageTimeout.isZero()) {
            throw new IllegalArgumentException("WebSocketMessageTimeout must be a positive duration, got "
                    + webSocketMessageTimeout);
        }
    }

    /**
     * {@return one child's budget in bytes}
     *
     * @param maxHeap the JVM's maximum heap ({@link Runtime#maxMemory()})
     * @param children the children that start together ({@code StartServers}), which share a heap share
     */
    public long childBytes(long maxHeap, int children) {
        if (bytes != 0) {
            return bytes;
        }
        return Math.max(MIN_BYTES, maxHeap / 100 * heapPercent / Math.max(1, children));
    }

    /**
     * {@return a copy with {@code InputBudget} set to a size}
     *
     * @param v the bytes per child, at least {@link #MIN_BYTES}
     * @throws IllegalArgumentException if the value is out of bounds
     */
    public InputBudgetSettings withBytes(long v) {
        if (v == 0) {
            throw new IllegalArgumentException("InputBudget must be at least " + MIN_BYTES + " bytes, got 0");
        }
        return new InputBudgetSettings(v, heapPercent, webSocketMessageTimeout);
    }

    /**
     * {@return a copy with {@code InputBudget} set to a share of the heap}
     *
     * @param v the percentage, 1 to 90
     * @throws IllegalArgumentException if the value is out of bounds
     */
    public InputBudgetSettings withHeapPercent(int v) {
        return new InputBudgetSettings(0, v, webSocketMessageTimeout);
    }

    /**
     * {@return a copy with {@code WebSocketMessageTimeout} changed}
     *
     * @param v the new deadline for finishing a message
     * @throws IllegalArgumentException if the value is out of bounds
     */
    public InputBudgetSettings withWebSocketMessageTimeout(Duration v) {
        return new InputBudgetSettings(bytes, heapPercent, v);
    }
}
