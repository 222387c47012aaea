package org.loommpm.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which listeners expect the PROXY protocol (HAProxy's header, v1 or v2, before anything else on
 * the connection, TLS included), and how long the header may take; one {@link ServerConfig}
 * field. On such a listener a connection without a valid header is refused, and the header's
 * client address replaces the socket's peer address for everything above (request API, access
 * log, {@code Require ip}, metrics and status). Immutable.
 *
 * @param all {@code RemoteIPProxyProtocol On}: every listener expects it
 * @param listen the configured addresses ({@code Listen addr proxy-protocol}) that expect it, as
 *               written (an ephemeral port 0 matches every listener configured with that address)
 * @param headerTimeout {@code RemoteIPProxyProtocolTimeout}: how long after the accept the whole
 *                      header may take to arrive; then the connection is closed
 * @param exceptions {@code RemoteIPProxyProtocolExceptions}: clients (by socket address) whose
 *                   connections do not carry the header even on such a listener (a monitoring
 *                   host that connects directly); called on the accepting poller, so it must be
 *                   cheap and must not block. {@link #NO_EXCEPTIONS} by default
 */
public record ProxyProtocolSettings(boolean all, Set<InetSocketAddress> listen, Duration headerTimeout,
                                    Predicate<InetAddress> exceptions) {
    /** No client is excepted. */
    public static final Predicate<InetAddress> NO_EXCEPTIONS = new NoExceptions();

    /** Off, with a 5 s header timeout: a balancer sends the header with its first segment. */
    public static final ProxyProtocolSettings DEFAULTS =
            new ProxyProtocolSettings(false, Set.of(), Duration.ofSeconds(5), NO_EXCEPTIONS);

    /** Checks the timeout and copies the set. */
    public ProxyProtocolSettings {
        listen = Set.copyOf(Objects.requireNonNull(listen));
        Objects.requireNonNull(exceptions);
        if (headerTimeout == null || headerTimeout.isNegative() || headerTimeout.isZero()) {
            throw new IllegalArgumentException("RemoteIPProxyProtocolTimeout must be a positive duration, got "
                    + headerTimeout);
        }
    }

    /**
     * Whether a listener configured as {@code address} expects the header.
     *
     * @param address the listener's configured address, as written in its {@code Listen}
     * @return true if connections on that listener must start with the header
     */
    public boolean appliesTo(InetSocketAddress address) {
        return all || listen.contains(address);
    }

    /** {@return whether any listener expects the header} */
    public boolean enabled() {
        return all || !listen.isEmpty();
    }

    /**
     * A copy with {@code RemoteIPProxyProtocol} set.
     *
     * @param on whether every listener expects the header
     * @return the copy
     */
    public ProxyProtocolSettings withAll(boolean on) {
        return new ProxyProtocolSettings(on, listen, headerTimeout, exceptions);
    }

    /**
     * A copy where the listener configured as {@code address} expects the header too.
     *
     * @param address the listener's configured address ({@code Listen addr proxy-protocol})
     * @return the copy
     */
    public ProxyProtocolSettings withListener(InetSocketAddress address) {
        java.util.Set<InetSocketAddress> s = new java.util.LinkedHashSet<>(listen);
        s.add(Objects.requireNonNull(address));
        return new ProxyProtocolSettings(all, s, headerTimeout, exceptions);
    }

    /**
     * A copy with another header timeout ({@code RemoteIPProxyProtocolTimeout}).
     *
     * @param timeout how long the whole header may take to arrive; positive
     * @return the copy
     * @throws IllegalArgumentException if {@code timeout} is null, zero or negative
     */
    public ProxyProtocolSettings withHeaderTimeout(Duration timeout) {
        return new ProxyProtocolSettings(all, listen, timeout, exceptions);
    }

    /**
     * A copy where clients matching {@code excepted} connect without the header
     * ({@code RemoteIPProxyProtocolExceptions}).
     *
     * @param excepted the clients, by socket address; cheap and non-blocking (called on the poller)
     * @return the copy
     */
    public ProxyProtocolSettings withExceptions(Predicate<InetAddress> excepted) {
        return new ProxyProtocolSettings(all, listen, headerTimeout, excepted);
    }

    /** {@link #NO_EXCEPTIONS}: a class rather than a lambda, which the start would spin a class for. */
    private static final class NoExceptions implements Predicate<InetAddress> {
        @Override
        public boolean test(InetAddress a) {
            return false;
        }
    }
}
