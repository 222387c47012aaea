package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.config.RequestReadTimeout;

/**
 * The engine's directives: every setting of {@link org.loommpm.config.ServerConfig}, with httpd's
 * syntax and ranges. {@code ThreadsPerChild} and {@code ThreadLimit} above the compile-time
 * maximum clamp here, with a warning naming the line, as httpd does; the relations between the
 * pool limits (ThreadsPerChild within ThreadLimit, MaxRequestWorkers a multiple of
 * ThreadsPerChild within ServerLimit, StartServers within them, MaxSpareThreads at least
 * MinSpareThreads + ThreadsPerChild) are adjusted by {@code ServerConfig.build()} whatever order the
 * directives come in, and reported with {@code -t} and at start (LM0801). Every other value out
 * of range is an error.
 */
final class EngineDirectives {
    /** httpd's MAX_THREAD_LIMIT: the most ThreadsPerChild or ThreadLimit may be before it is clamped. */
    static final int THREAD_LIMIT = org.loommpm.config.ServerConfig.MAX_THREAD_LIMIT;

    private EngineDirectives() {
    }

    /**
     * The directives, each with its own case in {@link #apply}: one enum instead of a lambda per
     * directive keeps start-up from spinning dozens of classes. Each constant's
     * {@link DirectiveSpec} is made by the constructor, last, so the constants and what they do
     * read together (the other directive enums are laid out alike).
     */
    enum D implements DirectiveTable.Action {
        LISTEN("Listen", 1, 3, "[IP-address:]port [protocol] [proxy-protocol]"),
        LISTEN_BACKLOG("ListenBacklog", 1, 1, "backlog"),
        START_SERVERS("StartServers", 1, 1, "number"),
        THREADS_PER_CHILD("ThreadsPerChild", 1, 1, "number"),
        POLLERS_PER_CHILD("PollersPerChild", 1, 1, "number"),
        MAX_CONNECTIONS_PER_CHILD("MaxConnectionsPerChild", 1, 1, "number"),
        RECYCLE_LIST_SIZE("RecycleListSize", 1, 1, "number"),
        CONNECTION_BUFFER_SIZE("ConnectionBufferSize", 1, 1, "bytes"),
        TCP_NODELAY("TcpNoDelay", 1, 1, "On|Off"),
        ADMISSION_CONTROL("AdmissionControl", 1, 1, "On|Off"),
        MAX_SLOTLESS_WAITS("MaxSlotlessWaits", 1, 1, "number (0 = a wait keeps its worker slot)"),
        OPEN_CONNECTIONS_PER_CHILD("OpenConnectionsPerChild", 1, 1, "number (0 = derived from heap and fd limit)"),
        PROTOCOLS("Protocols", 1, 3, "protocol ... (h2 h2c http/1.1)"),
        TIMEOUT("Timeout", 1, 1, "seconds"),
        REQUEST_READ_TIMEOUT("RequestReadTimeout", 1, 3,
                "[handshake=seconds] [header=timeout[-maxtimeout][,MinRate=rate]] [body=timeout[-maxtimeout][,MinRate=rate]]"),
        FIRST_BYTE_TIMEOUT("FirstByteTimeout", 1, 1, "seconds (0 = off)"),
        NON_BLOCKING_HANDLER_LIMIT("NonBlockingHandlerLimit", 1, 1, "time, e.g. 100ms (0 = off)"),
        KEEP_ALIVE("KeepAlive", 1, 1, "On|Off"),
        KEEP_ALIVE_TIMEOUT("KeepAliveTimeout", 1, 1, "seconds"),
        MAX_KEEP_ALIVE_REQUESTS("MaxKeepAliveRequests", 1, 1, "number"),
        LINGER_TIMEOUT("LingerTimeout", 1, 1, "seconds"),
        GRACEFUL_SHUTDOWN_TIMEOUT("GracefulShutdownTimeout", 1, 1, "seconds"),
        GRACEFUL_STOP_DELAY("GracefulStopDelay", 1, 1, "seconds"),
        LIMIT_REQUEST_LINE("LimitRequestLine", 1, 1, "bytes"),
        LIMIT_REQUEST_FIELDS("LimitRequestFields", 1, 1, "number"),
        LIMIT_REQUEST_FIELD_SIZE("LimitRequestFieldSize", 1, 1, "bytes"),
        LIMIT_REQUEST_BODY("LimitRequestBody", 1, 1, "bytes"),
        SERVER_TOKENS("ServerTokens", 1, 1, "Prod|Major|Minor|Minimal|OS|Full"),
        CHILD_POLICY("ChildPolicy", 1, 1, "static|dynamic"),
        THREAD_LIMIT_D("ThreadLimit", 1, 1, "number"),
        SERVER_LIMIT_D("ServerLimit", 1, 1, "number"),
        MAX_REQUEST_WORKERS("MaxRequestWorkers", 1, 1, "number"),
        MAX_CLIENTS("MaxClients", 1, 1, "number (old name of MaxRequestWorkers)"),
        MIN_SPARE_THREADS("MinSpareThreads", 1, 1, "number"),
        MAX_SPARE_THREADS("MaxSpareThreads", 1, 1, "number"),
        CHILD_WATCHDOG_TIMEOUT("ChildWatchdogTimeout", 1, 1, "seconds (0 = off)"),
        CHILD_SCALING("ChildScaling", 1, 1, "worker|spamd"),
        CHILD_PING_INTERVAL("ChildPingInterval", 1, 1, "seconds (0 = off)"),
        CHILD_PING_MISSES("ChildPingMisses", 1, 1, "number");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            String a = l.args().get(0);
            switch (this) {
                case LISTEN -> listen(s, l);
                case LISTEN_BACKLOG -> s.engine.listenBacklog(Args.intArg(l, 1, 65535));
                case START_SERVERS -> startServers(s, l);
                case THREADS_PER_CHILD -> threadsPerChild(s, l);
                case POLLERS_PER_CHILD -> s.engine.pollersPerChild(Args.intArg(l, 0, 64));
                case MAX_CONNECTIONS_PER_CHILD -> s.engine.maxConnectionsPerChild(Args.integer(l, a, 0, Long.MAX_VALUE));
                case RECYCLE_LIST_SIZE -> s.engine.recycleListSize(Args.intArg(l, 0, 65536));
                case CONNECTION_BUFFER_SIZE -> s.engine.bufferSize(Args.intArg(l, 1024, 16 << 20));
                case TCP_NODELAY -> s.engine.tcpNoDelay(Args.onOff(l));
                case ADMISSION_CONTROL -> s.engine.admissionControl(Args.onOff(l));
                case MAX_SLOTLESS_WAITS -> s.engine.slotlessWaits(
                        new org.loommpm.config.SlotlessWaits(Args.intArg(l, 0, Integer.MAX_VALUE)));
                case OPEN_CONNECTIONS_PER_CHILD -> s.engine.admission(
                        new AdmissionSettings(Args.intArg(l, 0, Integer.MAX_VALUE)));
                case PROTOCOLS -> protocols(s, l);
                case TIMEOUT -> s.engine.timeout(Args.duration(l, a, false));
                case REQUEST_READ_TIMEOUT -> requestReadTimeout(s, l);
                case FIRST_BYTE_TIMEOUT -> s.engine.firstByteTimeout(Args.duration(l, a, true));
                case NON_BLOCKING_HANDLER_LIMIT -> s.engine.nonBlockingHandlerLimit(Args.duration(l, a, true));
                case KEEP_ALIVE -> s.engine.keepAlive(Args.onOff(l));
                case KEEP_ALIVE_TIMEOUT -> s.engine.keepAliveTimeout(Args.duration(l, a, false));
                case MAX_KEEP_ALIVE_REQUESTS -> s.engine.maxKeepAliveRequests(Args.intArg(l, 0, Integer.MAX_VALUE));
                case LINGER_TIMEOUT -> s.engine.lingerTimeout(Args.duration(l, a, false));
                case GRACEFUL_SHUTDOWN_TIMEOUT -> s.engine.gracefulShutdownTimeout(Args.duration(l, a, true));
                case GRACEFUL_STOP_DELAY -> s.engine.gracefulStopDelay(Args.duration(l, a, true));
                case LIMIT_REQUEST_LINE -> s.engine.limitRequestLine(Args.intArg(l, 64, 1 << 20));
                case LIMIT_REQUEST_FIELDS -> s.engine.limitRequestFields(Args.intArg(l, 1, 32767));
                case LIMIT_REQUEST_FIELD_SIZE -> s.engine.limitRequestFieldSize(Args.intArg(l, 64, 1 << 20));
                case LIMIT_REQUEST_BODY -> s.engine.limitRequestBody(Args.integer(l, a, 0, Integer.MAX_VALUE));
                case SERVER_TOKENS -> serverTokens(s, l);
                case CHILD_POLICY -> childPolicy(s, l);
                case THREAD_LIMIT_D -> threadLimit(s, l);
                case SERVER_LIMIT_D -> s.engine.serverLimit(Args.intArg(l, 1, Integer.MAX_VALUE));
                case MAX_REQUEST_WORKERS, MAX_CLIENTS -> s.engine.maxRequestWorkers(Args.intArg(l, 1, Integer.MAX_VALUE));
                case MIN_SPARE_THREADS -> s.engine.minSpareThreads(Args.intArg(l, 0, Integer.MAX_VALUE));
                case MAX_SPARE_THREADS -> s.engine.maxSpareThreads(Args.intArg(l, 0, Integer.MAX_VALUE));
                case CHILD_WATCHDOG_TIMEOUT -> childWatchdogTimeout(s, l);
                case CHILD_SCALING -> s.engine.childScaling(switch (a.toLowerCase(Locale.ROOT)) {
                    case "worker" -> org.loommpm.config.ChildScaling.WORKER;
                    case "spamd" -> org.loommpm.config.ChildScaling.SPAMD;
                    default -> throw l.error("ChildScaling takes worker or spamd, got '" + a + "'");
                });
                case CHILD_PING_INTERVAL -> s.engine.childPingInterval(Args.duration(l, a, true));
                case CHILD_PING_MISSES -> s.engine.childPingMisses(Args.intArg(l, 1, 1000));
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, SERVER, syntax);
        }
    }

    /** {@code Protocols h2 h2c http/1.1}: names as httpd spells them, case-insensitive. */
    private static void protocols(ParseState s, ConfigLine l) throws ConfigException {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (String a : l.args()) {
            String p = a.toLowerCase(Locale.ROOT);
            if (!org.loommpm.config.ServerConfig.DEFAULT_PROTOCOLS.contains(p)) {
                throw l.error("Protocols: unknown protocol '" + a + "' (known: h2, h2c, http/1.1)");
            }
            if (!names.contains(p)) {
                names.add(p);
            }
        }
        s.engine.protocols(names);
    }

    /**
     * {@code Listen 8080}, {@code Listen 127.0.0.1:8080}, {@code Listen [::1]:8080}, with httpd's
     * optional protocol ({@code http}, {@code https}) and loom-mpm's {@code proxy-protocol} flag:
     * connections start with a PROXY protocol header (as httpd's {@code RemoteIPProxyProtocol On}
     * does for every listener).
     */
    private static void listen(ParseState s, ConfigLine l) throws ConfigException {
        String a = l.args().get(0);
        boolean https = false;
        boolean proxyProtocol = false;
        boolean protocolSeen = false;
        for (String opt : l.args().subList(1, l.args().size())) {
            if (opt.equalsIgnoreCase("proxy-protocol") && !proxyProtocol) {
                proxyProtocol = true;
            } else if ((opt.equalsIgnoreCase("https") || opt.equalsIgnoreCase("http")) && !protocolSeen) {
                protocolSeen = true;
                https = opt.equalsIgnoreCase("https");
            } else if (!protocolSeen && !opt.equalsIgnoreCase("proxy-protocol")) {
                throw l.error("Listen: protocol '" + opt + "' is not supported (http or https)");
            } else {
                throw l.error("Listen: '" + opt + "' is not supported here (one protocol, http or https, and the flag "
                        + "proxy-protocol)");
            }
        }
        String host = null;
        String port = a;
        if (a.startsWith("[")) {
            int close = a.indexOf("]:");
            if (close < 0) {
                throw l.error("Listen: an IPv6 address needs a port: [addr]:port, got '" + a + "'");
            }
            host = a.substring(1, close);
            port = a.substring(close + 2);
        } else if (a.indexOf(':') >= 0) {
            int colon = a.lastIndexOf(':');
            host = a.substring(0, colon);
            port = a.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                throw l.error("Listen: write an IPv6 address in brackets, [addr]:port, got '" + a + "'");
            }
        }
        int p = (int) Args.integer(l, port, 0, 65535);
        InetSocketAddress addr;
        if (host == null || host.equals("*")) {
            addr = new InetSocketAddress(p);
        } else {
            addr = new InetSocketAddress(literal(l, host), p);
        }
        if (p != 0 && !s.listens.add(addr)) {
            throw l.error("Cannot define multiple Listeners on the same IP:port (" + a + ")");
        }
        if (https) {
            TlsDirectives.httpsListen(s, l, addr);
        } else {
            s.engine.listen(addr);
        }
        if (proxyProtocol) {
            s.engine.proxyProtocol(s.engine.proxyProtocol().withListener(addr));
        }
    }

    /** Address literals only: a host name would make start-up depend on DNS. */
    private static InetAddress literal(ConfigLine l, String host) throws ConfigException {
        boolean ok = !host.isEmpty();
        for (int i = 0; i < host.length() && ok; i++) {
            char c = host.charAt(i);
            ok = Character.digit(c, 16) >= 0 || c == '.' || c == ':' || c == '%';
        }
        if (ok && host.indexOf(':') < 0) {
            int dots = 0;
            for (int i = 0; i < host.length() && ok; i++) {
                char c = host.charAt(i);
                dots += c == '.' ? 1 : 0;
                ok = c == '.' || (c >= '0' && c <= '9');
            }
            ok &= dots == 3;
        }
        if (host.equalsIgnoreCase("localhost")) {
            return InetAddress.getLoopbackAddress();
        }
        if (!ok) {
            throw l.error("Listen: '" + host + "' is not an IP address (use an address literal, * or localhost)");
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw l.error("Listen: '" + host + "' is not an IP address");
        }
    }

    private static void startServers(ParseState s, ConfigLine l) throws ConfigException {
        s.engine.startServers(Args.intArg(l, 1, Integer.MAX_VALUE));
    }

    private static void childPolicy(ParseState s, ConfigLine l) throws ConfigException {
        s.engine.childPolicy(switch (l.args().get(0).toLowerCase(Locale.ROOT)) {
            case "static" -> org.loommpm.config.ChildPolicy.STATIC;
            case "dynamic" -> org.loommpm.config.ChildPolicy.DYNAMIC;
            default -> throw l.error("ChildPolicy takes static or dynamic, got '" + l.args().get(0) + "'");
        });
    }

    private static void threadLimit(ParseState s, ConfigLine l) throws ConfigException {
        int n = Args.intArg(l, 1, Integer.MAX_VALUE);
        if (n > THREAD_LIMIT) {
            s.warn(l, "ThreadLimit of " + n + " exceeds the maximum of " + THREAD_LIMIT + ", decreasing to match");
            n = THREAD_LIMIT;
        }
        s.engine.threadLimit(n);
    }

    /** {@code ChildWatchdogTimeout 0} turns the watchdog off; otherwise at least a second (pollers wake every 500 ms). */
    private static void childWatchdogTimeout(ParseState s, ConfigLine l) throws ConfigException {
        Duration d = Args.duration(l, l.args().get(0), true);
        if (!d.isZero() && d.compareTo(Duration.ofSeconds(1)) < 0) {
            throw l.error("ChildWatchdogTimeout must be 0 (off) or at least 1 second, got '" + l.args().get(0) + "'");
        }
        s.engine.childWatchdogTimeout(d);
    }

    private static void threadsPerChild(ParseState s, ConfigLine l) throws ConfigException {
        int n = Args.intArg(l, 1, Integer.MAX_VALUE);
        if (n > THREAD_LIMIT) {
            s.warn(l, "ThreadsPerChild of " + n + " exceeds ThreadLimit of " + THREAD_LIMIT + ", decreasing to match");
            n = THREAD_LIMIT;
        }
        s.engine.threadsPerChild(n);
    }

    /**
     * mod_reqtimeout's syntax: {@code handshake=}, {@code header=} and {@code body=}, each
     * optional; a stage not named keeps its value (httpd's default unless an earlier line set
     * it). {@code handshake=} takes plain seconds here (no range, no rate).
     */
    private static void requestReadTimeout(ParseState s, ConfigLine l) throws ConfigException {
        RequestReadTimeout t = s.engine.requestReadTimeout();
        for (String a : l.args()) {
            int eq = a.indexOf('=');
            String key = eq < 0 ? a : a.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : a.substring(eq + 1);
            try {
                t = switch (key) {
                    case "header" -> t.withHeader(RequestReadTimeout.Stage.parse(value));
                    case "body" -> t.withBody(RequestReadTimeout.Stage.parse(value));
                    case "handshake" -> {
                        RequestReadTimeout.Stage h = RequestReadTimeout.Stage.parse(value);
                        if (!h.maxTimeout().isZero() || h.minRate() != 0) {
                            throw new IllegalArgumentException("RequestReadTimeout: handshake= takes seconds only"
                                    + " (no range or MinRate), got '" + a + "'");
                        }
                        yield t.withHandshake(h.timeout());
                    }
                    default -> throw new IllegalArgumentException("RequestReadTimeout: unknown stage '" + a
                            + "' (known: handshake=, header=, body=)");
                };
            } catch (IllegalArgumentException e) {
                throw l.error(e.getMessage());
            }
        }
        s.engine.requestReadTimeout(t);
    }

    private static void serverTokens(ParseState s, ConfigLine l) throws ConfigException {
        String v = Version.current();
        String header = switch (l.args().get(0).toLowerCase(Locale.ROOT)) {
            case "prod", "productonly" -> "loom-mpm";
            case "major" -> "loom-mpm/" + v.split("[.-]")[0];
            case "minor" -> {
                String[] parts = v.split("[.-]");
                yield "loom-mpm/" + parts[0] + (parts.length > 1 ? "." + parts[1] : "");
            }
            case "min", "minimal" -> "loom-mpm/" + v;
            case "os" -> "loom-mpm/" + v + " (" + System.getProperty("os.name") + ")";
            case "full" -> "loom-mpm/" + v + " (" + System.getProperty("os.name") + ") Java/"
                    + Runtime.version().feature();
            default -> throw l.error("ServerTokens takes Prod, Major, Minor, Minimal, OS or Full, got '"
                    + l.args().get(0) + "'");
        };
        s.engine.serverHeader(header);
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
