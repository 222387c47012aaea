package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.config.ServerConfig;

/**
 * The supervisor's bound {@code Listen} sockets, one per address, kept across generations: a
 * graceful restart binds only the addresses it adds and closes those it removes, so the sockets
 * the old and new generations share never stop queueing connections.
 *
 * <p>Threads: bound and closed by the thread calling the supervisor's start, restart, drain and
 * stop (the embedding application, one call at a time). The pollers only register the channels;
 * closing one that a poller's selector still holds is safe (its next select deregisters it).
 */
final class Listeners {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final Map<InetSocketAddress, ServerSocketChannel> bound = new LinkedHashMap<>();
    /** Bind with SO_REUSEPORT (this JVM is one of several child processes). Set before the first bind. */
    private boolean reusePort;

    void reusePort(boolean on) {
        reusePort = on;
    }

    /** Every address to bind: the plain {@code Listen} ones, then the {@code https} ones. */
    static List<InetSocketAddress> addresses(ServerConfig config) {
        List<InetSocketAddress> all = new ArrayList<>(config.listen());
        all.addAll(config.tls().listen());
        return all;
    }

    /**
     * Binds the addresses of {@code config} not bound yet (port 0: always a new socket).
     *
     * @return the listeners for every address of {@code config}, in {@link #addresses} order
     * @throws IOException if an address cannot be bound; what this call bound is closed again
     */
    List<ServerSocketChannel> bind(ServerConfig config) throws IOException {
        List<ServerSocketChannel> before = all();
        List<ServerSocketChannel> out = new ArrayList<>();
        try {
            for (InetSocketAddress addr : addresses(config)) {
                ServerSocketChannel ssc = addr.getPort() == 0 ? null : bound.get(addr);
                if (ssc == null) {
                    ssc = open(addr, config.listenBacklog());
                    bound.put(addr.getPort() == 0 ? (InetSocketAddress) ssc.getLocalAddress() : addr, ssc);
                }
                out.add(ssc);
            }
        } catch (IOException | RuntimeException e) {
            keepOnly(before);
            throw e;
        }
        return List.copyOf(out);
    }

    private ServerSocketChannel open(InetSocketAddress addr, int backlog) throws IOException {
        ServerSocketChannel ssc = ServerSocketChannel.open();
        try {
            ssc.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (reusePort) {
                setReusePort(ssc);
            }
            ssc.bind(addr, backlog);
            ssc.configureBlocking(false);
            return ssc;
        } catch (IOException e) {
            ssc.close();
            throw new IOException("could not bind " + addr + ": " + e.getMessage(), e);
        }
    }

    private static void setReusePort(ServerSocketChannel ssc) throws IOException {
        if (!ssc.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
            throw new IOException("SO_REUSEPORT is not supported on this platform (" + System.getProperty("os.name")
                    + "): child processes cannot share a listening address");
        }
        ssc.setOption(StandardSocketOptions.SO_REUSEPORT, true);
    }

    /** Every listener bound now. */
    List<ServerSocketChannel> all() {
        return new ArrayList<>(bound.values());
    }

    /**
     * Closes and forgets every listener not in {@code keep}: those a restart's new configuration
     * no longer names, or (to undo a failed start or restart) those bound since {@link #all}
     * returned {@code keep}.
     */
    void keepOnly(Collection<ServerSocketChannel> keep) {
        List<ServerSocketChannel> removed = new ArrayList<>();
        bound.values().removeIf(ch -> {
            if (!keep.contains(ch)) {
                removed.add(ch);
                return true;
            }
            return false;
        });
        close(removed);
    }

    /** Closes every listener (they stay listed: a stop or drain is the end of them). */
    void closeAll() {
        close(all());
    }

    static void close(List<ServerSocketChannel> listeners) {
        for (ServerSocketChannel l : listeners) {
            try {
                l.close();
            } catch (IOException ignored) {
                // Closing a listener cannot fail in a way we could act on.
            }
        }
    }

    /**
     * Accepts what the kernel has queued on {@code l} and hands it to {@code taker} (if any), then
     * closes it: with SO_REUSEPORT, connections still in a closing socket's queue are reset, so the
     * sweep leaves only those that arrive between the last accept and the close, microseconds once
     * the pollers have released the listener (if one did not, the kernel's close waits for its next
     * select: see {@link #awaitDeregistered}).
     */
    static void sweepAndClose(Listener l, Child taker) {
        try {
            SocketChannel ch;
            while (taker != null && (ch = l.channel().accept()) != null) {
                taker.adoptSwept(ch, l);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0811 the accept sweep before closing a drained listener failed: {0}", e.toString());
        }
        close(List.of(l.channel()));
    }

    /**
     * A listener closed by another thread while registered with a poller's selector stays open in
     * the kernel (still in the SO_REUSEPORT group, still queueing connections that its close will
     * then reset) until that poller's next select deregisters it. Waits for that, at most 1 s.
     */
    static void awaitDeregistered(List<ServerSocketChannel> listeners) {
        long end = System.nanoTime() + 1_000_000_000L;
        for (ServerSocketChannel l : listeners) {
            while (l.isRegistered() && System.nanoTime() - end < 0) {
                LockSupport.parkNanos(50_000);
            }
        }
    }
}
