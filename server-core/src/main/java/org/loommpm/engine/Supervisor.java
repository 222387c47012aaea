package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.config.ServerConfig;

/**
 * The supervisor (httpd's parent process): binds the listeners, starts {@code StartServers}
 * children sharing them, replaces a child one-for-one when it retires or fails, and runs the
 * graceful stop.
 *
 * <p><b>Sharing the listeners.</b> Every child's poller 0 registers the same listening channels
 * with its own selector; the kernel wakes them all and the losers' {@code accept()} returns
 * {@code null}. The alternative, one SO_REUSEPORT socket per child, lets the kernel spread
 * connections but strands a stopped child's backlog; sharing keeps a draining child's pending
 * connections available to the others, which graceful restart needs.
 *
 * <p><b>Threads.</b> Child replacement runs on one platform thread ("loom-supervisor") fed by a
 * queue, so pollers that announce a retiring child never start threads themselves.
 */
public final class Supervisor implements EngineStats {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final ServerConfig config;
    private final ConnectionHandler handler;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final List<Child> children = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final AtomicLong connectionIds = new AtomicLong();
    private final AtomicInteger childIds = new AtomicInteger();
    private final LongAdder acceptedTotal = new LongAdder();
    private final LongAdder closedTotal = new LongAdder();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean stopping;
    private volatile int generation = 1;
    private Thread thread;

    /**
     * @param config the settings
     * @param handler the protocol every connection is served with
     */
    public Supervisor(ServerConfig config, ConnectionHandler handler) {
        this.config = config;
        this.handler = handler;
    }

    /**
     * Binds every {@code Listen} address and starts the children. Returns once all are bound and
     * the pollers run.
     *
     * @throws IOException if an address cannot be bound (nothing stays bound then)
     */
    public void start() throws IOException {
        if (config.threadsPerChild() < 4) {
            LOG.log(Level.WARNING, "LM0004 ThreadsPerChild {0} is below 4: admission control has little room "
                    + "between its thresholds", config.threadsPerChild());
        }
        try {
            for (InetSocketAddress addr : config.listen()) {
                ServerSocketChannel ssc = ServerSocketChannel.open();
                listeners.add(ssc);
                ssc.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                ssc.bind(addr, config.listenBacklog());
                ssc.configureBlocking(false);
            }
            for (int i = 0; i < config.startServers(); i++) {
                startChild();
            }
        } catch (IOException | RuntimeException e) {
            closeListeners();
            throw e;
        }
        thread = Thread.ofPlatform().name("loom-supervisor").daemon(false).start(this::maintain);
        LOG.log(Level.INFO, "LM0001 loom-mpm started: {0} child(ren) x {1} worker slots, {2} poller(s) each, "
                + "listening on {3}", config.startServers(), config.threadsPerChild(),
                config.effectivePollersPerChild(), boundAddresses());
    }

    /** The addresses actually bound (ephemeral ports resolved), in {@code Listen} order. */
    public List<InetSocketAddress> boundAddresses() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (ServerSocketChannel l : listeners) {
            try {
                out.add((InetSocketAddress) l.getLocalAddress());
            } catch (IOException e) {
                // A listener already closed by stop(): skip it.
            }
        }
        return out;
    }

    private void startChild() throws IOException {
        Child c = new Child(childIds.incrementAndGet(), generation, config, handler, this, listeners);
        children.add(c);
        c.start();
    }

    private void maintain() {
        try {
            while (!stopped.isDone()) {
                Runnable r = events.poll(500, TimeUnit.MILLISECONDS);
                if (r != null) {
                    r.run();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A child stopped accepting for good: start its replacement (unless the server is stopping). */
    void childRetiring(Child c) {
        events.add(() -> {
            if (!stopping) {
                try {
                    startChild();
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.ERROR, "LM0005 could not start a replacement for child " + c.id(), e);
                }
            }
        });
    }

    void childExited(Child c) {
        children.remove(c);
    }

    long nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    void connectionAccepted() {
        acceptedTotal.increment();
    }

    void connectionClosed() {
        closedTotal.increment();
    }

    /**
     * Graceful stop: every child stops accepting and closes its idle keep-alive connections;
     * requests in flight finish (their responses say {@code Connection: close}); after
     * {@code timeout} whatever is left is closed. Returns when every child has exited.
     */
    public void stop(Duration timeout) {
        if (stopping) {
            awaitStopped();
            return;
        }
        stopping = true;
        LOG.log(Level.INFO, "LM0006 graceful stop: finishing in-flight requests (at most {0} ms)", timeout.toMillis());
        // New clients are refused at once rather than left in a backlog nobody will drain.
        closeListeners();
        List<Child> now = List.copyOf(children);
        for (Child c : now) {
            c.stopGracefully();
        }
        CompletableFuture<?> all = CompletableFuture.allOf(now.stream().map(Child::exited)
                .toArray(CompletableFuture[]::new));
        try {
            all.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(Level.WARNING, "LM0007 GracefulShutdownTimeout reached: closing {0} connection(s) still open",
                    connectionsOpen());
            for (Child c : children) {
                c.forceExit();
            }
            joinQuietly(all);
        } catch (ExecutionException e) {
            LOG.log(Level.ERROR, "LM0008 a child failed while stopping", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopped.complete(null);
        if (thread != null) {
            thread.interrupt();
        }
        LOG.log(Level.INFO, "LM0009 loom-mpm stopped");
    }

    private void awaitStopped() {
        joinQuietly(stopped);
    }

    private static void joinQuietly(CompletableFuture<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.log(Level.DEBUG, "LM0010 wait ended with {0}", e.getCause().toString());
        }
    }

    private void closeListeners() {
        for (ServerSocketChannel l : listeners) {
            try {
                l.close();
            } catch (IOException ignored) {
                // Closing a listener cannot fail in a way we could act on.
            }
        }
    }

    /** Whether a graceful stop has begun. */
    public boolean isStopping() {
        return stopping;
    }

    @Override
    public int generation() {
        return generation;
    }

    @Override
    public long connectionsAccepted() {
        return acceptedTotal.sum();
    }

    @Override
    public long connectionsClosed() {
        return closedTotal.sum();
    }

    @Override
    public long connectionsOpen() {
        long n = 0;
        for (Child c : children) {
            n += c.openConnections();
        }
        return n;
    }

    @Override
    public List<ChildStats> children() {
        return List.copyOf(children);
    }
}
