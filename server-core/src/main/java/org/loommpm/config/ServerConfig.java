package org.loommpm.config;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Every engine and HTTP/1.1 setting, with its default, in one typed place. Names follow Apache
 * httpd's directives; {@code docs/configuration.md} lists each with its meaning and unit.
 * Immutable: build one with {@link #builder()}; a running server never sees a change (a new
 * configuration takes effect through a new generation of children).
 */
public final class ServerConfig {
    /** {@code Listen}: default when none is given, {@code 0.0.0.0:8080}. */
    public static final int DEFAULT_PORT = 8080;
    /** {@code StartServers}: in-JVM children started (and kept) by the supervisor. */
    public static final int DEFAULT_START_SERVERS = 1;
    /** {@code ThreadsPerChild}: worker slots (handler tasks running at once) per child. */
    public static final int DEFAULT_THREADS_PER_CHILD = 256;
    /** {@code PollersPerChild}: 0 = one per available processor, capped at 8. */
    public static final int DEFAULT_POLLERS_PER_CHILD = 0;
    /** Upper bound of the automatic {@code PollersPerChild}. */
    public static final int MAX_AUTO_POLLERS = 8;
    /** {@code MaxConnectionsPerChild}: 0 = unlimited. */
    public static final long DEFAULT_MAX_CONNECTIONS_PER_CHILD = 0;
    /** {@code Timeout}: longest wait for a body read or a response write to make progress. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** {@code RequestReadTimeout header=}'s first timeout (see {@link #DEFAULT_REQUEST_READ_TIMEOUT}). */
    public static final Duration DEFAULT_REQUEST_HEADER_TIMEOUT = Duration.ofSeconds(20);
    /** {@code RequestReadTimeout}: {@code handshake=0 header=20-40,MinRate=500 body=20,MinRate=500}, httpd's. */
    public static final RequestReadTimeout DEFAULT_REQUEST_READ_TIMEOUT = RequestReadTimeout.DEFAULT;
    /**
     * {@code FirstByteTimeout}: how long a new connection may stay silent (no byte of a request,
     * a preface or a TLS ClientHello) before it is closed. Ten seconds covers a client whose
     * first segment is lost and retransmitted three times (1 + 2 + 4 s of RTO), while a silent
     * connection is released at half the header stage's first timeout.
     */
    public static final Duration DEFAULT_FIRST_BYTE_TIMEOUT = Duration.ofSeconds(10);
    /** {@code KeepAlive}. */
    public static final boolean DEFAULT_KEEP_ALIVE = true;
    /** {@code KeepAliveTimeout}: idle time allowed between requests on one connection. */
    public static final Duration DEFAULT_KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(5);
    /** {@code MaxKeepAliveRequests}: requests per connection, 0 = unlimited. */
    public static final int DEFAULT_MAX_KEEP_ALIVE_REQUESTS = 100;
    /** {@code LimitRequestLine}: bytes in the request line. */
    public static final int DEFAULT_LIMIT_REQUEST_LINE = 8190;
    /** {@code LimitRequestFields}: header fields per request. */
    public static final int DEFAULT_LIMIT_REQUEST_FIELDS = 100;
    /** {@code LimitRequestFieldSize}: bytes in one header field line. */
    public static final int DEFAULT_LIMIT_REQUEST_FIELD_SIZE = 8190;
    /** {@code LimitRequestBody}: bytes of request body, 0 = unlimited (httpd's default: 1 GiB). */
    public static final long DEFAULT_LIMIT_REQUEST_BODY = 1L << 30;
    /** {@code GracefulShutdownTimeout}: how long a graceful stop waits before closing by force. */
    public static final Duration DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    /**
     * {@code GracefulStopDelay}: how long a graceful stop keeps accepting, with readiness already
     * answering 503, before it closes the listeners (so a load balancer that polls readiness
     * stops sending first). 0, the default, closes them at once as before.
     */
    public static final Duration DEFAULT_GRACEFUL_STOP_DELAY = Duration.ZERO;
    /** {@code LingerTimeout}: how long a closing connection's unread input is drained. */
    public static final Duration DEFAULT_LINGER_TIMEOUT = Duration.ofSeconds(2);
    /** {@code TcpNoDelay}. */
    public static final boolean DEFAULT_TCP_NODELAY = true;
    /** {@code ListenBacklog}. */
    public static final int DEFAULT_LISTEN_BACKLOG = 511;
    /** {@code RecycleListSize}: connection contexts kept per poller for reuse. */
    public static final int DEFAULT_RECYCLE_LIST_SIZE = 64;
    /** {@code ConnectionBufferSize}: bytes of each connection context's read and write buffer. */
    public static final int DEFAULT_BUFFER_SIZE = 16 * 1024;
    /** {@code AdmissionControl}: whether a child at its connection bound switches the listener off (see AdmissionControl). */
    public static final boolean DEFAULT_ADMISSION_CONTROL = true;
    /**
     * {@code Protocols}: what connections may speak, in order of preference for ALPN.
     * {@code h2} = HTTP/2 over TLS (ALPN), {@code h2c} = HTTP/2 in cleartext (prior knowledge or
     * {@code Upgrade: h2c}), {@code http/1.1} (always served, except on cleartext connections when
     * {@code h2c} is listed without it: those are HTTP/2 only). HTTP/2 needs the server-h2 module.
     */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("h2", "h2c", "http/1.1");
    /** {@code ChildPolicy}: a fixed number of children by default (see {@link ChildPolicy}). */
    public static final ChildPolicy DEFAULT_CHILD_POLICY = ChildPolicy.STATIC;
    /**
     * {@code ThreadLimit}: the most {@code ThreadsPerChild} may be; a larger one is lowered to it.
     * Worker slots are virtual-thread permits, so the limit is httpd's compile-time maximum.
     */
    public static final int DEFAULT_THREAD_LIMIT = 20000;
    /** Highest {@code ThreadLimit} accepted (httpd's MAX_THREAD_LIMIT); above it is lowered. */
    public static final int MAX_THREAD_LIMIT = 20000;
    /** {@code ServerLimit}: the most children running (not counting children finishing). */
    public static final int DEFAULT_SERVER_LIMIT = 64;
    /** Highest {@code ServerLimit} accepted; above it is lowered. */
    public static final int MAX_SERVER_LIMIT = 1024;
    /** {@code MaxRequestWorkers}: worker slots in all children together; 0 = ServerLimit x ThreadsPerChild. */
    public static final int DEFAULT_MAX_REQUEST_WORKERS = 0;
    /** {@code MinSpareThreads} (dynamic policy): fewer free slots than this start children. */
    public static final int DEFAULT_MIN_SPARE_THREADS = 64;
    /**
     * {@code MaxSpareThreads} (dynamic policy): more free slots than this retire a child. Raised to
     * MinSpareThreads + ThreadsPerChild if lower, so retiring one child never makes the pool short.
     */
    public static final int DEFAULT_MAX_SPARE_THREADS = 512;
    /**
     * {@code ChildWatchdogTimeout}: a poller that has not completed a loop iteration for this long
     * marks its child sick (it is drained and replaced). {@link Duration#ZERO} disables the watchdog.
     * Pollers complete an iteration at least every 500 ms, so it must be 0 or at least 1 s.
     */
    public static final Duration DEFAULT_CHILD_WATCHDOG_TIMEOUT = Duration.ofSeconds(10);
    /**
     * {@code NonBlockingHandlerLimit}: how long a non-blocking handler ({@code api.InvocationType})
     * may hold the poller that runs it inline before the server logs it as a violation (LM2500,
     * LM2501). {@link Duration#ZERO} turns the check off.
     */
    public static final Duration DEFAULT_NON_BLOCKING_HANDLER_LIMIT = Duration.ofMillis(100);
    /** {@code ChildScaling}: worker.c's doubling. */
    public static final ChildScaling DEFAULT_CHILD_SCALING = ChildScaling.WORKER;
    /**
     * {@code ChildPingInterval}: how often the supervisor pings each child's engine (spamd's
     * ping). Ten seconds: a ping costs one worker task per child per interval.
     */
    public static final Duration DEFAULT_CHILD_PING_INTERVAL = Duration.ofSeconds(10);
    /**
     * {@code ChildPingMisses}: pings in a row a child may leave unanswered before it is replaced.
     * Three at the default interval: 30 s in which not one of the child's worker slots came free.
     */
    public static final int DEFAULT_CHILD_PING_MISSES = 3;
    /**
     * How often the supervisor runs its maintenance (pool policy, watchdog, start-up retries), as
     * httpd's parent does once a second. Not a directive: tests shorten it.
     */
    public static final Duration DEFAULT_MAINTENANCE_INTERVAL = Duration.ofSeconds(1);
    /** {@code ServerTokens}-like product string sent in {@code Server}. */
    public static final String DEFAULT_SERVER_HEADER = "loom-mpm";

    private final List<InetSocketAddress> listen;
    private final int startServers;
    private final int threadsPerChild;
    private final int pollersPerChild;
    private final long maxConnectionsPerChild;
    private final Duration timeout;
    private final RequestReadTimeout requestReadTimeout;
    private final Duration firstByteTimeout;
    private final boolean keepAlive;
    private final Duration keepAliveTimeout;
    private final int maxKeepAliveRequests;
    private final int limitRequestLine;
    private final int limitRequestFields;
    private final int limitRequestFieldSize;
    private final long limitRequestBody;
    private final Duration gracefulShutdownTimeout;
    private final Duration gracefulStopDelay;
    private final Duration lingerTimeout;
    private final boolean tcpNoDelay;
    private final int listenBacklog;
    private final int recycleListSize;
    private final int bufferSize;
    private final String serverHeader;
    private final boolean admissionControl;
    private final List<String> protocols;
    private final ChildPolicy childPolicy;
    private final int threadLimit;
    private final int serverLimit;
    private final int maxRequestWorkers;
    /** As configured (0 = derived), so {@link #toBuilder()} re-derives it from changed limits. */
    private final int configuredMaxRequestWorkers;
    private final int minSpareThreads;
    private final int maxSpareThreads;
    private final Duration childWatchdogTimeout;
    private final Duration nonBlockingHandlerLimit;
    private final ChildScaling childScaling;
    private final Duration childPingInterval;
    private final int childPingMisses;
    private final Duration maintenanceInterval;
    private final List<String> adjustments;
    private final TlsSettings tls;
    private final Http2Settings http2;
    private final ProxyProtocolSettings proxyProtocol;
    private final WebSocketSettings webSocket;
    private final AdmissionSettings admission;
    private final StreamingSettings streaming;
    private final InputBudgetSettings inputBudget;
    private final SlotlessWaits slotlessWaits;
    private final ClientChargeSettings clientCharges;

    private ServerConfig(Builder b, Limits limits, TlsSettings tls) {
        this.listen = List.copyOf(b.listen.isEmpty() && tls.listen().isEmpty()
                ? List.of(new InetSocketAddress(DEFAULT_PORT)) : b.listen);
        this.tls = tls;
        this.startServers = limits.startServers();
        this.threadsPerChild = limits.threadsPerChild();
        this.pollersPerChild = b.pollersPerChild;
        this.maxConnectionsPerChild = b.maxConnectionsPerChild;
        this.timeout = b.timeout;
        this.requestReadTimeout = b.requestReadTimeout;
        this.firstByteTimeout = b.firstByteTimeout;
        this.keepAlive = b.keepAlive;
        this.keepAliveTimeout = b.keepAliveTimeout;
        this.maxKeepAliveRequests = b.maxKeepAliveRequests;
        this.limitRequestLine = b.limitRequestLine;
        this.limitRequestFields = b.limitRequestFields;
        this.limitRequestFieldSize = b.limitRequestFieldSize;
        this.limitRequestBody = b.limitRequestBody;
        this.gracefulShutdownTimeout = b.gracefulShutdownTimeout;
        this.gracefulStopDelay = b.gracefulStopDelay;
        this.lingerTimeout = b.lingerTimeout;
        this.tcpNoDelay = b.tcpNoDelay;
        this.listenBacklog = b.listenBacklog;
        this.recycleListSize = b.recycleListSize;
        this.bufferSize = b.bufferSize;
        this.serverHeader = b.serverHeader;
        this.admissionControl = b.admissionControl;
        this.protocols = List.copyOf(b.protocols);
        this.childPolicy = b.childPolicy;
        this.threadLimit = limits.threadLimit();
        this.serverLimit = limits.serverLimit();
        this.maxRequestWorkers = limits.maxRequestWorkers();
        this.configuredMaxRequestWorkers = b.maxRequestWorkers;
        this.minSpareThreads = limits.minSpareThreads();
        this.maxSpareThreads = limits.maxSpareThreads();
        this.childWatchdogTimeout = b.childWatchdogTimeout;
        this.nonBlockingHandlerLimit = b.nonBlockingHandlerLimit;
        this.childScaling = b.childScaling;
        this.childPingInterval = b.childPingInterval;
        this.childPingMisses = b.childPingMisses;
        this.maintenanceInterval = b.maintenanceInterval;
        this.adjustments = limits.adjustments();
        this.http2 = b.http2;
        this.proxyProtocol = b.proxyProtocol;
        this.webSocket = b.webSocket;
        this.admission = b.admission;
        this.streaming = b.streaming;
        this.inputBudget = b.inputBudget;
        this.slotlessWaits = b.slotlessWaits;
        this.clientCharges = b.clientCharges;
    }

    /** {@return A builder holding every default} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return A builder starting from this configuration} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.listen.addAll(listen);
        b.startServers = startServers;
        b.threadsPerChild = threadsPerChild;
        b.pollersPerChild = pollersPerChild;
        b.maxConnectionsPerChild = maxConnectionsPerChild;
        b.timeout = timeout;
        b.requestReadTimeout = requestReadTimeout;
        b.firstByteTimeout = firstByteTimeout;
        b.keepAlive = keepAlive;
        b.keepAliveTimeout = keepAliveTimeout;
        b.maxKeepAliveRequests = maxKeepAliveRequests;
        b.limitRequestLine = limitRequestLine;
        b.limitRequestFields = limitRequestFields;
        b.limitRequestFieldSize = limitRequestFieldSize;
        b.limitRequestBody = limitRequestBody;
        b.gracefulShutdownTimeout = gracefulShutdownTimeout;
        b.gracefulStopDelay = gracefulStopDelay;
        b.lingerTimeout = lingerTimeout;
        b.tcpNoDelay = tcpNoDelay;
        b.listenBacklog = listenBacklog;
        b.recycleListSize = recycleListSize;
        b.bufferSize = bufferSize;
        b.serverHeader = serverHeader;
        b.admissionControl = admissionControl;
        b.protocols = protocols;
        b.childPolicy = childPolicy;
        b.threadLimit = threadLimit;
        b.serverLimit = serverLimit;
        b.maxRequestWorkers = configuredMaxRequestWorkers;
        b.minSpareThreads = minSpareThreads;
        b.maxSpareThreads = maxSpareThreads;
        b.childWatchdogTimeout = childWatchdogTimeout;
        b.nonBlockingHandlerLimit = nonBlockingHandlerLimit;
        b.childScaling = childScaling;
        b.childPingInterval = childPingInterval;
        b.childPingMisses = childPingMisses;
        b.maintenanceInterval = maintenanceInterval;
        b.tls = tls.toBuilder();
        b.http2 = http2;
        b.proxyProtocol = proxyProtocol;
        b.webSocket = webSocket;
        b.slotlessWaits = slotlessWaits;
        b.admission = admission;
        b.streaming = streaming;
        b.inputBudget = inputBudget;
        b.clientCharges = clientCharges;
        return b;
    }

    /** {@return {@code Listen}: the addresses to bind (IPv4 or IPv6; port 0 = ephemeral)} */
    public List<InetSocketAddress> listen() { return listen; }
    /** {@return {@code StartServers}} */
    public int startServers() { return startServers; }
    /** {@return {@code ThreadsPerChild}} */
    public int threadsPerChild() { return threadsPerChild; }
    /** {@return {@code PollersPerChild} as configured (0 = auto); see {@link #effectivePollersPerChild()}} */
    public int pollersPerChild() { return pollersPerChild; }
    /** {@return {@code MaxConnectionsPerChild} (0 = unlimited)} */
    public long maxConnectionsPerChild() { return maxConnectionsPerChild; }
    /** {@return {@code Timeout}} */
    public Duration timeout() { return timeout; }
    /** {@return {@code RequestReadTimeout}: the handshake, header and body stages} */
    public RequestReadTimeout requestReadTimeout() { return requestReadTimeout; }
    /** {@return {@code RequestReadTimeout header=}'s first timeout (0 = the stage is off)} */
    public Duration requestHeaderTimeout() { return requestReadTimeout.header().timeout(); }
    /** {@return {@code FirstByteTimeout} (0 = off)} */
    public Duration firstByteTimeout() { return firstByteTimeout; }

    /**
     * How long a new connection may wait for its first byte: {@code FirstByteTimeout}, and never
     * longer than the header stage's first timeout (which httpd counts from the accept); with
     * both off, {@code Timeout}.
     *
     * @return the wait
     */
    public Duration firstByteWait() {
        Duration header = requestReadTimeout.header().timeout();
        if (firstByteTimeout.isZero()) {
            return header.isZero() ? timeout : header;
        }
        return header.isZero() || firstByteTimeout.compareTo(header) <= 0 ? firstByteTimeout : header;
    }

    /**
     * How long a TLS handshake may take from the accept: {@code RequestReadTimeout handshake=},
     * else (handshake=0, httpd's default) the header stage's first timeout, else {@code Timeout}.
     *
     * @return the timeout
     */
    public Duration tlsHandshakeTimeout() {
        if (!requestReadTimeout.handshake().isZero()) {
            return requestReadTimeout.handshake();
        }
        Duration header = requestReadTimeout.header().timeout();
        return header.isZero() ? timeout : header;
    }
    /** {@return {@code KeepAlive}} */
    public boolean keepAlive() { return keepAlive; }
    /** {@return {@code KeepAliveTimeout}} */
    public Duration keepAliveTimeout() { return keepAliveTimeout; }
    /** {@return {@code MaxKeepAliveRequests} (0 = unlimited)} */
    public int maxKeepAliveRequests() { return maxKeepAliveRequests; }
    /** {@return {@code LimitRequestLine}} */
    public int limitRequestLine() { return limitRequestLine; }
    /** {@return {@code LimitRequestFields}} */
    public int limitRequestFields() { return limitRequestFields; }
    /** {@return {@code LimitRequestFieldSize}} */
    public int limitRequestFieldSize() { return limitRequestFieldSize; }
    /** {@return {@code LimitRequestBody} (0 = unlimited)} */
    public long limitRequestBody() { return limitRequestBody; }
    /** {@return {@code GracefulShutdownTimeout}} */
    public Duration gracefulShutdownTimeout() { return gracefulShutdownTimeout; }
    /** {@return {@code GracefulStopDelay}: see {@link #DEFAULT_GRACEFUL_STOP_DELAY}} */
    public Duration gracefulStopDelay() { return gracefulStopDelay; }
    /** {@return {@code LingerTimeout}} */
    public Duration lingerTimeout() { return lingerTimeout; }
    /** {@return {@code TcpNoDelay}} */
    public boolean tcpNoDelay() { return tcpNoDelay; }
    /** {@return {@code ListenBacklog}} */
    public int listenBacklog() { return listenBacklog; }
    /** {@return {@code RecycleListSize}} */
    public int recycleListSize() { return recycleListSize; }
    /** {@return {@code ConnectionBufferSize}} */
    public int bufferSize() { return bufferSize; }
    /** {@return the {@code Server} header value ({@code ServerTokens})} */
    public String serverHeader() { return serverHeader; }
    /** {@return {@code AdmissionControl}: off only to measure what it protects against} */
    public boolean admissionControl() { return admissionControl; }
    /** {@return {@code Protocols}: {@code h2}, {@code h2c}, {@code http/1.1}, in preference order} */
    public List<String> protocols() { return protocols; }
    /** {@return TLS: {@code SSLEngine}, {@code Listen ... https}, certificates, protocols, suites} */
    public TlsSettings tls() { return tls; }

    /** {@return {@code ChildPolicy}} */
    public ChildPolicy childPolicy() { return childPolicy; }
    /** {@return {@code ThreadLimit} (ThreadsPerChild is never above it)} */
    public int threadLimit() { return threadLimit; }
    /** {@return {@code ServerLimit} as adjusted: the most children running at once (not counting finishing ones)} */
    public int serverLimit() { return serverLimit; }
    /** {@return {@code MaxRequestWorkers} as adjusted: a multiple of ThreadsPerChild, at most ServerLimit x ThreadsPerChild} */
    public int maxRequestWorkers() { return maxRequestWorkers; }
    /** {@return {@code MinSpareThreads} as adjusted (at least 1)} */
    public int minSpareThreads() { return minSpareThreads; }
    /** {@return {@code MaxSpareThreads} as adjusted (at least MinSpareThreads + ThreadsPerChild under the dynamic policy)} */
    public int maxSpareThreads() { return maxSpareThreads; }
    /** {@return {@code ChildWatchdogTimeout} ({@link Duration#ZERO}: off)} */
    public Duration childWatchdogTimeout() { return childWatchdogTimeout; }
    /** {@return {@code NonBlockingHandlerLimit} ({@link Duration#ZERO}: no check)} */
    public Duration nonBlockingHandlerLimit() { return nonBlockingHandlerLimit; }
    /** {@return {@code ChildScaling worker|spamd}} */
    public ChildScaling childScaling() { return childScaling; }
    /** {@return {@code ChildPingInterval} (0 = no liveness ping)} */
    public Duration childPingInterval() { return childPingInterval; }
    /** {@return {@code ChildPingMisses}} */
    public int childPingMisses() { return childPingMisses; }
    /** {@return how often the supervisor runs its maintenance (not a directive)} */
    public Duration maintenanceInterval() { return maintenanceInterval; }

    /** {@return children that may run at once: {@code MaxRequestWorkers / ThreadsPerChild} (at most ServerLimit)} */
    public int childLimit() {
        return maxRequestWorkers / threadsPerChild;
    }

    /**
     * What {@link Builder#build()} changed to make the limits consistent, one operator-readable
     * sentence each (httpd's start-up warnings); empty when nothing was adjusted. The engine logs
     * them (LM0801) when a generation starts with this configuration.
     *
     * @return the adjustments, in the order they were made
     */
    public List<String> adjustments() { return adjustments; }
    /** {@return the HTTP/2 limits and guards ({@code H2*} directives)} */
    public Http2Settings http2() { return http2; }
    /** {@return the WebSocket limits and timers ({@code WebSocket*})} */
    public WebSocketSettings webSocket() { return webSocket; }
    /** {@return what clients may make a child hold, and the WebSocket message deadline ({@code InputBudget}, ...)} */
    public InputBudgetSettings inputBudget() { return inputBudget; }

    /** {@return admission control's connection bound ({@code OpenConnectionsPerChild})} */
    public AdmissionSettings admission() { return admission; }
    /** {@return the outbound queue, suspended exchanges and event streams ({@code OutboundQueueLimit}, ...)} */
    public StreamingSettings streaming() { return streaming; }
    /** {@return how many waits on clients may hold no worker slot ({@code MaxSlotlessWaits})} */
    public SlotlessWaits slotlessWaits() { return slotlessWaits; }
    /** {@return CPU charged to client addresses, and TLS handshake admission ({@code ClientCharge*}, {@code TlsHandshake*})} */
    public ClientChargeSettings clientCharges() { return clientCharges; }

    /** {@return the PROXY protocol: which listeners expect the header, and its timeout} */
    public ProxyProtocolSettings proxyProtocol() { return proxyProtocol; }

    /** {@return pollers each child runs: the configured number, or auto; never more than ThreadsPerChild} */
    public int effectivePollersPerChild() {
        int n = pollersPerChild > 0 ? pollersPerChild
                : Math.min(MAX_AUTO_POLLERS, Runtime.getRuntime().availableProcessors());
        return Math.max(1, Math.min(n, threadsPerChild));
    }

    /**
     * The pool limits after httpd's consistency rules (worker.c's check_config and run hooks),
     * applied in httpd's order, each change noted for the operator.
     */
    private record Limits(int threadLimit, int threadsPerChild, int serverLimit, int maxRequestWorkers,
                          int startServers, int minSpareThreads, int maxSpareThreads, List<String> adjustments) {
        static Limits of(Builder b) {
            List<String> notes = new ArrayList<>();
            int threadLimit = b.threadLimit;
            if (threadLimit > MAX_THREAD_LIMIT) {
                notes.add("ThreadLimit of " + threadLimit + " exceeds the maximum of " + MAX_THREAD_LIMIT
                        + ", decreasing to match");
                threadLimit = MAX_THREAD_LIMIT;
            }
            int tpc = b.threadsPerChild;
            if (tpc > threadLimit) {
                notes.add("ThreadsPerChild of " + tpc + " exceeds ThreadLimit of " + threadLimit
                        + ", decreasing to match");
                tpc = threadLimit;
            }
            int serverLimit = b.serverLimit;
            if (serverLimit > MAX_SERVER_LIMIT) {
                notes.add("ServerLimit of " + serverLimit + " exceeds the maximum of " + MAX_SERVER_LIMIT
                        + ", decreasing to match");
                serverLimit = MAX_SERVER_LIMIT;
            }
            long ceiling = (long) serverLimit * tpc;
            long workers = b.maxRequestWorkers == 0 ? ceiling : b.maxRequestWorkers;
            if (workers < tpc) {
                notes.add("MaxRequestWorkers of " + workers + " is less than ThreadsPerChild of " + tpc
                        + ", increasing to match");
                workers = tpc;
            }
            if (workers % tpc != 0) {
                long rounded = workers / tpc * tpc;
                notes.add("MaxRequestWorkers of " + workers + " is not a multiple of ThreadsPerChild of " + tpc
                        + ", decreasing to " + rounded);
                workers = rounded;
            }
            if (workers > ceiling) {
                notes.add("MaxRequestWorkers of " + workers + " would need " + workers / tpc
                        + " children, more than ServerLimit of " + serverLimit + ", decreasing to " + ceiling);
                workers = ceiling;
            }
            int children = (int) (workers / tpc);
            int start = b.startServers;
            if (start > children) {
                notes.add("StartServers of " + start + " is more than the " + children
                        + " children MaxRequestWorkers and ServerLimit allow, decreasing to match");
                start = children;
            }
            int min = b.minSpareThreads;
            if (min < 1) {
                notes.add("MinSpareThreads of " + min + " is not allowed, increasing to 1");
                min = 1;
            }
            int max = b.maxSpareThreads;
            if (b.childPolicy == ChildPolicy.DYNAMIC && (long) max < (long) min + tpc) {
                // Otherwise retiring one child could leave fewer than MinSpareThreads free: the pool would flap.
                notes.add("MaxSpareThreads of " + max + " is less than MinSpareThreads + ThreadsPerChild ("
                        + min + " + " + tpc + "), increasing to " + (min + tpc));
                max = min + tpc;
            }
            return new Limits(threadLimit, tpc, serverLimit, (int) workers, start, min, max, List.copyOf(notes));
        }
    }

    /** Collects settings; {@link #build()} validates them. */
    public static final class Builder {
        private final List<InetSocketAddress> listen = new ArrayList<>();
        private int startServers = DEFAULT_START_SERVERS;
        private int threadsPerChild = DEFAULT_THREADS_PER_CHILD;
        private int pollersPerChild = DEFAULT_POLLERS_PER_CHILD;
        private long maxConnectionsPerChild = DEFAULT_MAX_CONNECTIONS_PER_CHILD;
        private Duration timeout = DEFAULT_TIMEOUT;
        private RequestReadTimeout requestReadTimeout = DEFAULT_REQUEST_READ_TIMEOUT;
        private Duration firstByteTimeout = DEFAULT_FIRST_BYTE_TIMEOUT;
        private boolean keepAlive = DEFAULT_KEEP_ALIVE;
        private Duration keepAliveTimeout = DEFAULT_KEEP_ALIVE_TIMEOUT;
        private int maxKeepAliveRequests = DEFAULT_MAX_KEEP_ALIVE_REQUESTS;
        private int limitRequestLine = DEFAULT_LIMIT_REQUEST_LINE;
        private int limitRequestFields = DEFAULT_LIMIT_REQUEST_FIELDS;
        private int limitRequestFieldSize = DEFAULT_LIMIT_REQUEST_FIELD_SIZE;
        private long limitRequestBody = DEFAULT_LIMIT_REQUEST_BODY;
        private Duration gracefulShutdownTimeout = DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT;
        private Duration gracefulStopDelay = DEFAULT_GRACEFUL_STOP_DELAY;
        private Duration lingerTimeout = DEFAULT_LINGER_TIMEOUT;
        private boolean tcpNoDelay = DEFAULT_TCP_NODELAY;
        private int listenBacklog = DEFAULT_LISTEN_BACKLOG;
        private int recycleListSize = DEFAULT_RECYCLE_LIST_SIZE;
        private int bufferSize = DEFAULT_BUFFER_SIZE;
        private String serverHeader = DEFAULT_SERVER_HEADER;
        private boolean admissionControl = DEFAULT_ADMISSION_CONTROL;
        private List<String> protocols = DEFAULT_PROTOCOLS;
        private ChildPolicy childPolicy = DEFAULT_CHILD_POLICY;
        private int threadLimit = DEFAULT_THREAD_LIMIT;
        private int serverLimit = DEFAULT_SERVER_LIMIT;
        private int maxRequestWorkers = DEFAULT_MAX_REQUEST_WORKERS;
        private int minSpareThreads = DEFAULT_MIN_SPARE_THREADS;
        private int maxSpareThreads = DEFAULT_MAX_SPARE_THREADS;
        private Duration childWatchdogTimeout = DEFAULT_CHILD_WATCHDOG_TIMEOUT;
        private Duration nonBlockingHandlerLimit = DEFAULT_NON_BLOCKING_HANDLER_LIMIT;
        private ChildScaling childScaling = DEFAULT_CHILD_SCALING;
        private Duration childPingInterval = DEFAULT_CHILD_PING_INTERVAL;
        private int childPingMisses = DEFAULT_CHILD_PING_MISSES;
        private Duration maintenanceInterval = DEFAULT_MAINTENANCE_INTERVAL;
        private TlsSettings.Builder tls = TlsSettings.builder();
        private Http2Settings http2 = Http2Settings.DEFAULTS;
        private ProxyProtocolSettings proxyProtocol = ProxyProtocolSettings.DEFAULTS;
        private WebSocketSettings webSocket = WebSocketSettings.DEFAULTS;
        private AdmissionSettings admission = AdmissionSettings.DEFAULTS;
        private StreamingSettings streaming = StreamingSettings.DEFAULTS;
        private InputBudgetSettings inputBudget = InputBudgetSettings.DEFAULTS;
        private SlotlessWaits slotlessWaits = SlotlessWaits.DEFAULTS;
        private ClientChargeSettings clientCharges = ClientChargeSettings.DEFAULTS;

        private Builder() {
        }

        /**
         * Adds a {@code Listen} address.
         *
         * @param address the address to bind; port 0 picks a free one
         * @return this builder
         */
        public Builder listen(InetSocketAddress address) { listen.add(Objects.requireNonNull(address)); return this; }
        /** {@return removes every {@code Listen} address} */
        public Builder clearListen() { listen.clear(); return this; }
        /**
         * {@code StartServers}, 1 or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder startServers(int n) { startServers = n; return this; }
        /**
         * {@code ThreadsPerChild}, 1 or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder threadsPerChild(int n) { threadsPerChild = n; return this; }
        /**
         * {@code PollersPerChild}, 0 (auto) or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder pollersPerChild(int n) { pollersPerChild = n; return this; }
        /**
         * {@code MaxConnectionsPerChild}, 0 (unlimited) or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder maxConnectionsPerChild(long n) { maxConnectionsPerChild = n; return this; }
        /**
         * {@code Timeout}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder timeout(Duration d) { timeout = d; return this; }
        /**
         * {@code RequestReadTimeout header=d}: the whole head within {@code d}, no rate (the form
         * this builder had before the full {@link #requestReadTimeout}; kept for compatibility).
         *
         * @param d the header stage's timeout
         * @return this builder
         */
        public Builder requestHeaderTimeout(Duration d) {
            requestReadTimeout = requestReadTimeout.withHeader(RequestReadTimeout.Stage.of(d));
            return this;
        }
        /**
         * {@code RequestReadTimeout}: every stage.
         *
         * @param t the value
         * @return this builder
         */
        public Builder requestReadTimeout(RequestReadTimeout t) { requestReadTimeout = Objects.requireNonNull(t); return this; }
        /** {@return the {@code RequestReadTimeout} set so far (a directive changes only the stages it names)} */
        public RequestReadTimeout requestReadTimeout() { return requestReadTimeout; }
        /**
         * {@code FirstByteTimeout}: 0 (off) or more.
         *
         * @param d the value
         * @return this builder
         */
        public Builder firstByteTimeout(Duration d) { firstByteTimeout = d; return this; }
        /**
         * {@code KeepAlive}.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder keepAlive(boolean on) { keepAlive = on; return this; }
        /**
         * {@code KeepAliveTimeout}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder keepAliveTimeout(Duration d) { keepAliveTimeout = d; return this; }
        /**
         * {@code MaxKeepAliveRequests}, 0 (unlimited) or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder maxKeepAliveRequests(int n) { maxKeepAliveRequests = n; return this; }
        /**
         * {@code LimitRequestLine}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder limitRequestLine(int n) { limitRequestLine = n; return this; }
        /**
         * {@code LimitRequestFields}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder limitRequestFields(int n) { limitRequestFields = n; return this; }
        /**
         * {@code LimitRequestFieldSize}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder limitRequestFieldSize(int n) { limitRequestFieldSize = n; return this; }
        /**
         * {@code LimitRequestBody}, 0 (unlimited) or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder limitRequestBody(long n) { limitRequestBody = n; return this; }
        /**
         * {@code GracefulShutdownTimeout}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder gracefulShutdownTimeout(Duration d) { gracefulShutdownTimeout = d; return this; }
        /**
         * {@code GracefulStopDelay}, 0 or more: see {@link ServerConfig#DEFAULT_GRACEFUL_STOP_DELAY}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder gracefulStopDelay(Duration d) { gracefulStopDelay = d; return this; }
        /**
         * {@code LingerTimeout}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder lingerTimeout(Duration d) { lingerTimeout = d; return this; }
        /**
         * {@code TcpNoDelay}.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder tcpNoDelay(boolean on) { tcpNoDelay = on; return this; }
        /**
         * {@code ListenBacklog}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder listenBacklog(int n) { listenBacklog = n; return this; }
        /**
         * {@code RecycleListSize}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder recycleListSize(int n) { recycleListSize = n; return this; }
        /**
         * {@code ConnectionBufferSize}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder bufferSize(int n) { bufferSize = n; return this; }
        /**
         * The {@code Server} header value.
         *
         * @param s the value
         * @return this builder
         */
        public Builder serverHeader(String s) { serverHeader = Objects.requireNonNull(s); return this; }
        /**
         * {@code AdmissionControl On|Off}.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder admissionControl(boolean on) { admissionControl = on; return this; }
        /**
         * {@code Protocols}: any of {@code h2}, {@code h2c}, {@code http/1.1}; HTTP/1.1 is always served,
         * except on cleartext connections when {@code h2c} is listed without it.
         *
         * @param names the value
         * @return this builder
         */
        public Builder protocols(List<String> names) { protocols = List.copyOf(names); return this; }
        /**
         * {@code ChildPolicy static|dynamic}.
         *
         * @param p the value
         * @return this builder
         */
        public Builder childPolicy(ChildPolicy p) { childPolicy = Objects.requireNonNull(p); return this; }
        /**
         * {@code ThreadLimit}, 1 or more (above {@link #MAX_THREAD_LIMIT} is lowered).
         *
         * @param n the value
         * @return this builder
         */
        public Builder threadLimit(int n) { threadLimit = n; return this; }
        /**
         * {@code ServerLimit}, 1 or more (above {@link #MAX_SERVER_LIMIT} is lowered).
         *
         * @param n the value
         * @return this builder
         */
        public Builder serverLimit(int n) { serverLimit = n; return this; }
        /**
         * {@code MaxRequestWorkers}, 0 (ServerLimit x ThreadsPerChild) or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder maxRequestWorkers(int n) { maxRequestWorkers = n; return this; }
        /**
         * {@code MinSpareThreads} (below 1 is raised to 1).
         *
         * @param n the value
         * @return this builder
         */
        public Builder minSpareThreads(int n) { minSpareThreads = n; return this; }
        /**
         * {@code MaxSpareThreads}.
         *
         * @param n the value
         * @return this builder
         */
        public Builder maxSpareThreads(int n) { maxSpareThreads = n; return this; }
        /**
         * {@code ChildWatchdogTimeout}: 0 (off) or at least 1 s.
         *
         * @param d the value
         * @return this builder
         */
        public Builder childWatchdogTimeout(Duration d) { childWatchdogTimeout = d; return this; }

        /**
         * {@code NonBlockingHandlerLimit}: 0 (no check) or more; see {@link #DEFAULT_NON_BLOCKING_HANDLER_LIMIT}.
         *
         * @param d the value
         * @return this builder
         */
        public Builder nonBlockingHandlerLimit(Duration d) { nonBlockingHandlerLimit = d; return this; }
        /**
         * {@code ChildScaling worker|spamd}.
         *
         * @param s the value
         * @return this builder
         */
        public Builder childScaling(ChildScaling s) { childScaling = Objects.requireNonNull(s); return this; }
        /**
         * {@code ChildPingInterval}: 0 (off) or positive.
         *
         * @param d the value
         * @return this builder
         */
        public Builder childPingInterval(Duration d) { childPingInterval = d; return this; }
        /**
         * {@code ChildPingMisses}: 1 or more.
         *
         * @param n the value
         * @return this builder
         */
        public Builder childPingMisses(int n) { childPingMisses = n; return this; }
        /**
         * How often the supervisor runs its maintenance; default 1 s (tests shorten it).
         *
         * @param d the value
         * @return this builder
         */
        public Builder maintenanceInterval(Duration d) { maintenanceInterval = d; return this; }
        /**
         * Adjusts the TLS settings ({@code SSL*} directives, {@code Listen ... https}).
         *
         * @param edit edits the settings in place
         * @return this builder
         */
        public Builder tls(java.util.function.Consumer<TlsSettings.Builder> edit) { edit.accept(tls); return this; }
        /**
         * Replaces the TLS settings.
         *
         * @param settings the value
         * @return this builder
         */
        public Builder tls(TlsSettings settings) { tls = settings.toBuilder(); return this; }
        /**
         * The HTTP/2 limits and guards ({@code H2*} directives).
         *
         * @param s the value
         * @return this builder
         */
        public Builder http2(Http2Settings s) { http2 = Objects.requireNonNull(s); return this; }
        /**
         * The PROXY protocol settings ({@code Listen ... proxy-protocol}, {@code RemoteIPProxyProtocol}).
         *
         * @param s the value
         * @return this builder
         */
        public Builder proxyProtocol(ProxyProtocolSettings s) { proxyProtocol = Objects.requireNonNull(s); return this; }
        /** {@return the PROXY protocol settings so far (to derive a copy from)} */
        public ProxyProtocolSettings proxyProtocol() { return proxyProtocol; }
        /**
         * The WebSocket limits and timers.
         *
         * @param s the value
         * @return this builder
         */
        public Builder webSocket(WebSocketSettings s) { webSocket = Objects.requireNonNull(s); return this; }
        /**
         * What clients may make a child hold in memory ({@code InputBudget}) and the WebSocket
         * message deadline ({@code WebSocketMessageTimeout}).
         *
         * @param s the value
         * @return this builder
         */
        public Builder inputBudget(InputBudgetSettings s) { inputBudget = Objects.requireNonNull(s); return this; }
        /**
         * How many waits on clients may hold no worker slot ({@code MaxSlotlessWaits}).
         *
         * @param s the value
         * @return this builder
         */
        public Builder slotlessWaits(SlotlessWaits s) { slotlessWaits = Objects.requireNonNull(s); return this; }
        /**
         * Admission control's connection bound ({@code OpenConnectionsPerChild}).
         *
         * @param s the value
         * @return this builder
         */
        public Builder admission(AdmissionSettings s) { admission = Objects.requireNonNull(s); return this; }
        /**
         * The outbound queue, suspended exchanges and event streams ({@code OutboundQueueLimit}, ...).
         *
         * @param s the value
         * @return this builder
         */
        public Builder streaming(StreamingSettings s) { streaming = Objects.requireNonNull(s); return this; }
        /**
         * CPU charged to client addresses, and TLS handshake admission.
         *
         * @param s the value
         * @return this builder
         */
        public Builder clientCharges(ClientChargeSettings s) { clientCharges = Objects.requireNonNull(s); return this; }

        /**
         * Validates and freezes the settings.
         *
         * @throws IllegalArgumentException naming the first setting out of range
         * @return the configuration
         */
        public ServerConfig build() {
            atLeast("StartServers", startServers, 1);
            atLeast("ThreadsPerChild", threadsPerChild, 1);
            atLeast("PollersPerChild", pollersPerChild, 0);
            atLeast("MaxConnectionsPerChild", maxConnectionsPerChild, 0);
            atLeast("MaxKeepAliveRequests", maxKeepAliveRequests, 0);
            atLeast("LimitRequestLine", limitRequestLine, 64);
            atLeast("LimitRequestFields", limitRequestFields, 1);
            atLeast("LimitRequestFieldSize", limitRequestFieldSize, 64);
            atLeast("LimitRequestBody", limitRequestBody, 0);
            atLeast("ListenBacklog", listenBacklog, 1);
            atLeast("RecycleListSize", recycleListSize, 0);
            atLeast("ConnectionBufferSize", bufferSize, 1024);
            positive("Timeout", timeout);
            if (firstByteTimeout == null || firstByteTimeout.isNegative()) {
                throw new IllegalArgumentException("FirstByteTimeout must be 0 (off) or positive, got " + firstByteTimeout);
            }
            positive("KeepAliveTimeout", keepAliveTimeout);
            positive("LingerTimeout", lingerTimeout);
            for (String p : protocols) {
                if (!DEFAULT_PROTOCOLS.contains(p)) {
                    throw new IllegalArgumentException("Protocols: unknown protocol " + p
                            + " (known: h2, h2c, http/1.1)");
                }
            }
            if (gracefulShutdownTimeout.isNegative()) {
                throw new IllegalArgumentException("GracefulShutdownTimeout must not be negative");
            }
            if (gracefulStopDelay == null || gracefulStopDelay.isNegative()) {
                throw new IllegalArgumentException("GracefulStopDelay must not be negative");
            }
            atLeast("ThreadLimit", threadLimit, 1);
            atLeast("ServerLimit", serverLimit, 1);
            atLeast("MaxRequestWorkers", maxRequestWorkers, 0);
            atLeast("MaxSpareThreads", maxSpareThreads, 0);
            positive("maintenance interval", maintenanceInterval);
            if (childPingInterval == null || childPingInterval.isNegative()) {
                throw new IllegalArgumentException("ChildPingInterval must be 0 (off) or positive, got " + childPingInterval);
            }
            atLeast("ChildPingMisses", childPingMisses, 1);
            if (nonBlockingHandlerLimit == null || nonBlockingHandlerLimit.isNegative()) {
                throw new IllegalArgumentException("NonBlockingHandlerLimit must be 0 (off) or positive, got "
                        + nonBlockingHandlerLimit);
            }
            if (childWatchdogTimeout == null || childWatchdogTimeout.isNegative()
                    || (!childWatchdogTimeout.isZero() && childWatchdogTimeout.compareTo(Duration.ofSeconds(1)) < 0)) {
                throw new IllegalArgumentException("ChildWatchdogTimeout must be 0 (off) or at least 1 second, got "
                        + childWatchdogTimeout);
            }
            return new ServerConfig(this, Limits.of(this), tls.build());
        }

        private static void atLeast(String name, long value, long min) {
            if (value < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
            }
        }

        private static void positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
            }
        }
    }
}
