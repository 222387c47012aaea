package org.loommpm.config;

import java.time.Duration;

/**
 * CPU that a client makes the server spend, charged to its address, and the admission of new TLS
 * handshakes; one {@link ServerConfig} field. {@code docs/configuration.md} ("CPU charged to its
 * client") describes each. Immutable: derive changed copies with the {@code with*} methods.
 *
 * <p>A <em>work unit</em> is about the CPU of inflating one byte. What is charged: a header block
 * answered 431 ({@code H2MaxHeaderListSize}), {@value #HPACK_BYTE_UNITS} units per byte of its
 * compressed length (Huffman decoding walks each input bit, about that many times the cost of an
 * inflated byte); one byte inflated from a WebSocket message, one unit; a TLS handshake,
 * {@value #HANDSHAKE_UNITS} units (an RSA-2048 signature and an ECDHE exchange take 1 to 2 ms,
 * about what inflating 1 MiB takes).
 *
 * @param rate {@code ClientChargeRate}: work units per second each client address earns back;
 *        0 turns charging off. The default, 32 MiB of units a second, is 32 full TLS handshakes a
 *        second from one address sustained (a browser makes a few per site, then resumes), or
 *        inflating 32 MiB a second, from 30 to 60 ms of CPU a second per address
 * @param burst {@code ClientChargeBurst}: units an address may spend at once before it is
 *        slowed; as much again in debt, and further work is refused until it earned some back.
 *        The default, 256 MiB, is 256 handshakes at once (a NAT of browsers starting together)
 * @param tableSize {@code ClientChargeTableSize}: client addresses each child keeps an account
 *        for; beyond it the least recently charged is forgotten, so many addresses cannot grow
 *        the table (IPv6 addresses are charged per /64)
 * @param handshakeConcurrency {@code TlsHandshakeConcurrency}: TLS handshake steps a child runs
 *        at once; the others wait in its handshake queue, served only when no other work waits
 *        for a worker. Default: half the processors (at least 1), so that handshakes never take
 *        every carrier thread from the established connections' requests
 * @param handshakeQueueTimeout {@code TlsHandshakeQueueTimeout}: how long a new TLS connection
 *        may wait in the handshake queue before it is closed (and counted)
 * @param inflateRatio {@code WebSocketMaxInflateRatio}: the largest inflated-to-compressed ratio of
 *        a permessage-deflate message ({@code inflateRatioMinBytes} inflated or more); beyond it
 *        the socket is closed 1008. 0 turns the check off
 * @param inflateRatioMinBytes the inflated size from which the ratio is checked: small messages
 *        may compress far better against the context kept from earlier ones
 */
public record ClientChargeSettings(long rate, long burst, int tableSize, int handshakeConcurrency,
                                   Duration handshakeQueueTimeout, int inflateRatio, int inflateRatioMinBytes) {
    /** Units a byte of an oversized (431) header block costs. */
    public static final int HPACK_BYTE_UNITS = 8;
    /** Units a TLS handshake costs. */
    public static final long HANDSHAKE_UNITS = 1 << 20;

    /** The defaults: 32 MiB/s, 256 MiB, 4096 addresses, half the processors, 2 s, 100:1 from 64 KiB. */
    public static final ClientChargeSettings DEFAULTS = new ClientChargeSettings(32L << 20, 256L << 20, 4096,
            Math.max(1, Runtime.getRuntime().availableProcessors() / 2), Duration.ofSeconds(2), 100, 64 * 1024);

    /** Checks every bound. */
    public ClientChargeSettings {
        if (rate < 0) {
            throw new IllegalArgumentException("ClientChargeRate must be 0 (off) or positive, got " + rate);
        }
        if (burst < HANDSHAKE_UNITS) {
            throw new IllegalArgumentException("ClientChargeBurst must be at least " + HANDSHAKE_UNITS
                    + " (one TLS handshake), got " + burst);
        }
        if (tableSize < 64) {
            throw new IllegalArgumentException("ClientChargeTableSize must be at least 64, got " + tableSize);
        }
        if (handshakeConcurrency < 1) {
            throw new IllegalArgumentException("TlsHandshakeConcurrency must be at least 1, got " + handshakeConcurrency);
        }
        if (handshakeQueueTimeout == null || handshakeQueueTimeout.compareTo(Duration.ofMillis(10)) < 0) {
            throw new IllegalArgumentException("TlsHandshakeQueueTimeout must be at least 10 ms, got "
                    + handshakeQueueTimeout);
        }
        if (inflateRatio < 0 || (inflateRatio > 0 && inflateRatio < 2)) {
            throw new IllegalArgumentException("WebSocketMaxInflateRatio must be 0 (off) or at least 2, got "
                    + inflateRatio);
        }
        if (inflateRatioMinBytes < 1024) {
            throw new IllegalArgumentException("the inflate ratio's minimum size must be at least 1024, got "
                    + inflateRatioMinBytes);
        }
    }

    /** {@return whether addresses are charged at all} */
    public boolean charging() {
        return rate > 0;
    }

    /**
     * {@return a copy with {@code ClientChargeRate} and {@code ClientChargeBurst} changed}
     *
     * @param unitsPerSecond the new rate (0 = off)
     * @param burstUnits the new burst
     */
    public ClientChargeSettings withRate(long unitsPerSecond, long burstUnits) {
        return new ClientChargeSettings(unitsPerSecond, burstUnits, tableSize, handshakeConcurrency,
                handshakeQueueTimeout, inflateRatio, inflateRatioMinBytes);
    }

    /**
     * {@return a copy with {@code ClientChargeTableSize} changed}
     *
     * @param addresses the new size
     */
    public ClientChargeSettings withTableSize(int addresses) {
        return new ClientChargeSettings(rate, burst, addresses, handshakeConcurrency, handshakeQueueTimeout,
                inflateRatio, inflateRatioMinBytes);
    }

    /**
     * {@return a copy with {@code TlsHandshakeConcurrency} and {@code TlsHandshakeQueueTimeout} changed}
     *
     * @param concurrency handshake steps run at once per child
     * @param queueTimeout the longest wait in the handshake queue
     */
    public ClientChargeSettings withHandshakes(int concurrency, Duration queueTimeout) {
        return new ClientChargeSettings(rate, burst, tableSize, concurrency, queueTimeout, inflateRatio,
                inflateRatioMinBytes);
    }

    /**
     * {@return a copy with {@code WebSocketMaxInflateRatio} changed}
     *
     * @param ratio the largest ratio (0 = off)
     * @param minBytes the inflated size from which it is checked
     */
    public ClientChargeSettings withInflateRatio(int ratio, int minBytes) {
        return new ClientChargeSettings(rate, burst, tableSize, handshakeConcurrency, handshakeQueueTimeout, ratio,
                minBytes);
    }
}
