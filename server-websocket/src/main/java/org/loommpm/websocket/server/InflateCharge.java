package org.loommpm.websocket.server;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.ClientCharges;
import org.loommpm.websocket.deflate.MessageInflater;
import org.loommpm.websocket.frame.CloseCodes;
import org.loommpm.websocket.frame.WebSocketProtocolException;

/**
 * What one permessage-deflate socket inflates, charged to its client's address
 * ({@link ClientCharges}, one unit a byte) after each read: an address in debt has its reads
 * paused (up to {@link #MAX_PAUSE_NANOS} a read, on a worker), an address deeper in debt has the
 * socket closed 1008 (LM2911, once per episode of the address). Also reports the socket's
 * {@link MessageInflater#ratioExceeded() ratio refusal} (LM2910, aggregated per interval: a flood
 * of bombs is one line). Owned by the socket's reader, like its inflater.
 */
final class InflateCharge {
    private static final System.Logger LOG = System.getLogger("org.loommpm.websocket");
    /** The longest pause a read: a slowed client's other messages still flow. */
    static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final MessageInflater inflater;
    private final ChildServices services;
    private final InetSocketAddress remote;
    private final WebSocketCounters counters;
    /** Bytes of {@link MessageInflater#inflatedTotal()} already charged. */
    private long charged;

    InflateCharge(MessageInflater inflater, ChildServices services, InetSocketAddress remote,
                  WebSocketCounters counters) {
        this.inflater = inflater;
        this.services = services;
        this.remote = remote;
        this.counters = counters;
    }

    /**
     * Charges what was inflated since the last call.
     *
     * @param id the socket's connection id (for the log line)
     * @throws WebSocketProtocolException 1008 when the address is over its share
     */
    void settle(long id) throws WebSocketProtocolException {
        long total = inflater.inflatedTotal();
        long units = total - charged;
        if (units == 0) {
            return;
        }
        charged = total;
        ClientCharges charges = services.charges();
        InetAddress client = remote == null ? null : remote.getAddress();
        ClientCharges.Verdict v = charges.charge(client, units);
        if (v == ClientCharges.Verdict.SLOW && Thread.currentThread().isVirtual()) {
            long nanos = charges.pauseNanos(client, MAX_PAUSE_NANOS);
            if (nanos > 0) {
                try {
                    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } else if (v.refused()) {
            counters.inflateRefused();
            if (v == ClientCharges.Verdict.FIRST_REFUSAL) {
                LOG.log(Level.WARNING, "LM2911 WebSocket {0}: client {1} is over its CPU share (ClientChargeRate)"
                        + " inflating messages: its sockets are closed 1008 until it earned some back", id, client);
            }
            throw new WebSocketProtocolException(CloseCodes.POLICY_VIOLATION, "client over its CPU share");
        }
    }

    /** After a read failed: what it inflated is charged, and a ratio refusal counted and logged. */
    void failed(long id) {
        long units = inflater.inflatedTotal() - charged;
        if (units > 0) {
            charged += units;
            services.charges().charge(remote == null ? null : remote.getAddress(), units);
        }
        if (inflater.ratioExceeded()) {
            counters.inflateRefused();
            services.intervalLog().log(LOG, Level.WARNING, "LM2910 WebSocket {0} from {1}: a message inflates more"
                    + " than WebSocketMaxInflateRatio: closed 1008", id, remote);
        }
    }
}
