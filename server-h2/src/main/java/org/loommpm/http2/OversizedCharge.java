package org.loommpm.http2;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.loommpm.config.ClientChargeSettings;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.spi.ClientCharges;

/**
 * Header blocks answered 431 charged to the client's address ({@link ClientCharges}), so that
 * reconnecting does not refresh the allowance {@code OversizedHeaderGuard} gives each connection:
 * one address sending 120 KiB Huffman-coded blocks over 1,500 connections kept 70 % of the CPU
 * (issue #50 item 7). Each block costs its compressed length times
 * {@link ClientChargeSettings#HPACK_BYTE_UNITS}. An address in debt has its frame loop paused
 * (its next frames are not read) for up to {@link #MAX_PAUSE_NANOS} per block, on a worker only
 * (a poller serving the connection inline never waits); an address deeper in debt gets GOAWAY
 * ENHANCE_YOUR_CALM on the connection that sent the block, logged once per episode (LM2900).
 * Frame loop only.
 */
final class OversizedCharge {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    /** The longest pause per block: short enough that a slowed connection still answers its other streams. */
    static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ClientCharges charges;
    private final InetSocketAddress remote;

    OversizedCharge(ClientCharges charges, InetSocketAddress remote) {
        this.charges = charges;
        this.remote = remote;
    }

    /**
     * Charges one block answered 431.
     *
     * @param compressedLength the block's length as sent
     * @param session the connection (for the log line)
     * @throws Http2Error ENHANCE_YOUR_CALM when the address is refused
     */
    void charge(int compressedLength, Object session) throws Http2Error {
        InetAddress client = remote == null ? null : remote.getAddress();
        ClientCharges.Verdict v = charges.charge(client, (long) compressedLength * ClientChargeSettings.HPACK_BYTE_UNITS);
        switch (v) {
            case WITHIN -> {
                // Within the address's share.
            }
            case SLOW -> pause(client);
            case FIRST_REFUSAL, REFUSE -> {
                if (v == ClientCharges.Verdict.FIRST_REFUSAL) {
                    LOG.log(Level.WARNING, "LM2900 {0}: client {1} is over its CPU share (ClientChargeRate) with header"
                            + " blocks over H2MaxHeaderListSize: GOAWAY ENHANCE_YOUR_CALM to its connections until it"
                            + " earned some back", session, client);
                }
                throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "client address over its CPU share");
            }
        }
    }

    private void pause(InetAddress client) {
        if (!Thread.currentThread().isVirtual()) {
            return;
        }
        long nanos = charges.pauseNanos(client, MAX_PAUSE_NANOS);
        if (nanos > 0) {
            try {
                Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
