package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;

/**
 * The engine's directives: every setting of {@link org.loommpm.config.ServerConfig}, with httpd's
 * syntax and ranges. Only {@code ThreadsPerChild} and {@code StartServers} clamp (with a warning),
 * as httpd does against its ThreadLimit and ServerLimit; every other value out of range is an
 * error.
 */
final class EngineDirectives {
    /** httpd's default ThreadLimit: the most ThreadsPerChild may be before it is clamped. */
    static final int THREAD_LIMIT = 20000;
    /** Most in-JVM children; StartServers above it is clamped, like httpd's ServerLimit. */
    static final int SERVER_LIMIT = 64;

    private EngineDirectives() {
    }

    static void register(DirectiveTable t) {
        t.register("Listen", 1, 2, SERVER, "[IP-address:]port [protocol]", EngineDirectives::listen);
        t.register("ListenBacklog", 1, 1, SERVER, "backlog",
                (s, l) -> s.engine.listenBacklog(Args.intArg(l, 1, 65535)));
        t.register("StartServers", 1, 1, SERVER, "number", EngineDirectives::startServers);
        t.register("ThreadsPerChild", 1, 1, SERVER, "number", EngineDirectives::threadsPerChild);
        t.register("PollersPerChild", 1, 1, SERVER, "number",
                (s, l) -> s.engine.pollersPerChild(Args.intArg(l, 0, 64)));
        t.register("MaxConnectionsPerChild", 1, 1, SERVER, "number",
                (s, l) -> s.engine.maxConnectionsPerChild(Args.integer(l, l.args().get(0), 0, Long.MAX_VALUE)));
        t.register("RecycleListSize", 1, 1, SERVER, "number",
                (s, l) -> s.engine.recycleListSize(Args.intArg(l, 0, 65536)));
        t.register("ConnectionBufferSize", 1, 1, SERVER, "bytes",
                (s, l) -> s.engine.bufferSize(Args.intArg(l, 1024, 16 << 20)));
        t.register("TcpNoDelay", 1, 1, SERVER, "On|Off", (s, l) -> s.engine.tcpNoDelay(Args.onOff(l)));
        t.register("Timeout", 1, 1, SERVER, "seconds",
                (s, l) -> s.engine.timeout(Args.duration(l, l.args().get(0), false)));
        t.register("RequestReadTimeout", 1, 2, SERVER, "header=seconds", EngineDirectives::requestReadTimeout);
        t.register("KeepAlive", 1, 1, SERVER, "On|Off", (s, l) -> s.engine.keepAlive(Args.onOff(l)));
        t.register("KeepAliveTimeout", 1, 1, SERVER, "seconds",
                (s, l) -> s.engine.keepAliveTimeout(Args.duration(l, l.args().get(0), false)));
        t.register("MaxKeepAliveRequests", 1, 1, SERVER, "number",
                (s, l) -> s.engine.maxKeepAliveRequests(Args.intArg(l, 0, Integer.MAX_VALUE)));
        t.register("LingerTimeout", 1, 1, SERVER, "seconds",
                (s, l) -> s.engine.lingerTimeout(Args.duration(l, l.args().get(0), false)));
        t.register("GracefulShutdownTimeout", 1, 1, SERVER, "seconds",
                (s, l) -> s.engine.gracefulShutdownTimeout(Args.duration(l, l.args().get(0), true)));
        t.register("LimitRequestLine", 1, 1, SERVER, "bytes",
                (s, l) -> s.engine.limitRequestLine(Args.intArg(l, 64, 1 << 20)));
        t.register("LimitRequestFields", 1, 1, SERVER, "number",
                (s, l) -> s.engine.limitRequestFields(Args.intArg(l, 1, 32767)));
        t.register("LimitRequestFieldSize", 1, 1, SERVER, "bytes",
                (s, l) -> s.engine.limitRequestFieldSize(Args.intArg(l, 64, 1 << 20)));
        t.register("LimitRequestBody", 1, 1, SERVER, "bytes",
                (s, l) -> s.engine.limitRequestBody(Args.integer(l, l.args().get(0), 0, Integer.MAX_VALUE)));
        t.register("ServerTokens", 1, 1, SERVER, "Prod|Major|Minor|Minimal|OS|Full", EngineDirectives::serverTokens);
    }

    /** {@code Listen 8080}, {@code Listen 127.0.0.1:8080}, {@code Listen [::1]:8080}. */
    private static void listen(ParseState s, ConfigLine l) throws ConfigException {
        String a = l.args().get(0);
        if (l.args().size() == 2 && !l.args().get(1).equalsIgnoreCase("http")) {
            throw l.error("Listen: protocol '" + l.args().get(1) + "' is not supported (only http, for now)");
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
        s.engine.listen(addr);
    }

    /** Address literals only: a host name would make start-up depend on DNS. */
    private static InetAddress literal(ConfigLine l, String host) throws ConfigException {
        boolean ok = !host.isEmpty();
        for (int i = 0; i < host.length() && ok; i++) {
            char c = host.charAt(i);
            ok = Character.digit(c, 16) >= 0 || c == '.' || c == ':' || c == '%';
        }
        if (ok && host.indexOf(':') < 0) {
            ok = host.chars().allMatch(c -> c == '.' || Character.isDigit(c)) && host.split("\\.", -1).length == 4;
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
        int n = Args.intArg(l, 1, Integer.MAX_VALUE);
        if (n > SERVER_LIMIT) {
            s.warn(l, "StartServers of " + n + " exceeds the limit of " + SERVER_LIMIT + ", decreasing to match");
            n = SERVER_LIMIT;
        }
        s.engine.startServers(n);
    }

    private static void threadsPerChild(ParseState s, ConfigLine l) throws ConfigException {
        int n = Args.intArg(l, 1, Integer.MAX_VALUE);
        if (n > THREAD_LIMIT) {
            s.warn(l, "ThreadsPerChild of " + n + " exceeds ThreadLimit of " + THREAD_LIMIT + ", decreasing to match");
            n = THREAD_LIMIT;
        }
        s.engine.threadsPerChild(n);
    }

    /** Only the {@code header=} part of mod_reqtimeout's syntax, without a rate. */
    private static void requestReadTimeout(ParseState s, ConfigLine l) throws ConfigException {
        for (String a : l.args()) {
            int eq = a.indexOf('=');
            String key = eq < 0 ? a : a.substring(0, eq).toLowerCase(Locale.ROOT);
            if (!key.equals("header") || eq < 0) {
                throw l.error("RequestReadTimeout: only header=SECONDS is supported, got '" + a + "'");
            }
            Duration d = Args.duration(l, a.substring(eq + 1), false);
            s.engine.requestHeaderTimeout(d);
        }
    }

    private static void serverTokens(ParseState s, ConfigLine l) throws ConfigException {
        String v = Version.current();
        String[] parts = v.split("[.-]");
        String header = switch (l.args().get(0).toLowerCase(Locale.ROOT)) {
            case "prod", "productonly" -> "loom-mpm";
            case "major" -> "loom-mpm/" + parts[0];
            case "minor" -> "loom-mpm/" + parts[0] + (parts.length > 1 ? "." + parts[1] : "");
            case "min", "minimal" -> "loom-mpm/" + v;
            case "os" -> "loom-mpm/" + v + " (" + System.getProperty("os.name") + ")";
            case "full" -> "loom-mpm/" + v + " (" + System.getProperty("os.name") + ") Java/"
                    + Runtime.version().feature();
            default -> throw l.error("ServerTokens takes Prod, Major, Minor, Minimal, OS or Full, got '"
                    + l.args().get(0) + "'");
        };
        s.engine.serverHeader(header);
    }
}
