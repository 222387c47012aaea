package org.loommpm.cli.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.loommpm.proxy.Balancer;
import org.loommpm.proxy.Member;
import org.loommpm.proxy.ProxyHandler;
import org.loommpm.proxy.ReverseMap;

/**
 * What the {@code Proxy*} directives configured (kept in {@link LoomConfig#extensions()} under
 * {@link #KEY}), and how it becomes handlers: {@link #start} builds the balancers and one
 * {@link ProxyHandler} per {@code ProxyPass}. Read-only once parsing ends.
 */
public final class ProxySettings {
    /** The extension key. */
    public static final String KEY = "proxy";

    /** One {@code ProxyPass}: {@code target} null for an exclusion ({@code !}). */
    record Pass(String path, String target, List<String> params, ConfigLine line, boolean inLocation,
                String upgrade) {
    }

    /** One {@code BalancerMember}. */
    record MemberSpec(String url, List<String> params, ConfigLine line) {
    }

    /** One {@code <Proxy balancer://name>}: its members and {@code ProxySet} parameters. */
    static final class BalancerSpec {
        final ConfigLine declared;
        final List<MemberSpec> members = new ArrayList<>();
        final List<String> set = new ArrayList<>();
        final List<ConfigLine> setLines = new ArrayList<>();

        BalancerSpec(ConfigLine declared) {
            this.declared = declared;
        }
    }

    final List<Pass> passes = new ArrayList<>();
    final List<String[]> reverses = new ArrayList<>();
    /** {@code ProxyPassReverseCookiePath} and {@code ...CookieDomain}: {backend value, client-facing value}. */
    final List<String[]> cookiePaths = new ArrayList<>();
    final List<String[]> cookieDomains = new ArrayList<>();
    final Map<String, BalancerSpec> balancers = new LinkedHashMap<>();
    final Map<String, IntPredicate> hcExprs = new HashMap<>();
    boolean preserveHost;
    boolean addHeaders = true;
    boolean via;
    /** {@code ProxyTimeout}, or null for {@code Timeout}'s value (httpd's default). */
    Duration timeout;

    /** The proxy settings of a parsed configuration, or null when no Proxy directive appeared. */
    public static ProxySettings of(LoomConfig c) {
        return (ProxySettings) c.extensions().get(KEY);
    }

    /** The start-up banner's lines: one per {@code ProxyPass}. */
    public void describe(StringBuilder sb) {
        for (Pass p : passes) {
            sb.append("  ProxyPass ").append(p.path()).append(' ').append(p.target() == null ? "!" : p.target())
                    .append(p.upgrade() != null ? " upgrade=" + p.upgrade() : "")
                    .append(p.inLocation() ? " (in <Location>)" : "").append('\n');
        }
    }

    /** Whether any {@code ProxyPass} is configured. */
    public boolean enabled() {
        return passes.stream().anyMatch(p -> p.target() != null);
    }

    /** A {@code ProxyPass} as running: its prefix, and its handler or null for an exclusion. */
    public record Route(String path, ProxyHandler handler, boolean inLocation) {
        /**
         * Whether a normalized request path falls under it, by whole segments as httpd's
         * mod_proxy compares: {@code /app} takes {@code /app} and {@code /app/x}, not
         * {@code /apple} (which a {@code <Location /app>} holding this line does not cover
         * either); {@code /app/} takes {@code /app/x}, not {@code /app}.
         */
        public boolean matches(String requestPath) {
            return requestPath.startsWith(path) && (requestPath.length() == path.length() || path.endsWith("/")
                    || requestPath.charAt(path.length()) == '/');
        }
    }

    /** The running proxy of a generation: its routes, and what {@link #close} stops. */
    public record Running(List<Route> routes, List<AutoCloseable> resources) implements AutoCloseable {
        /** Stops health checks and closes idle backend connections. */
        @Override
        public void close() {
            for (AutoCloseable c : resources) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // nothing holds a resource that can fail to close here
                }
            }
        }
    }

    /**
     * Builds the balancers and handlers: connection pools are created and health checks start.
     *
     * @param serverName {@code ServerName}, for {@code X-Forwarded-Server} and {@code Via}
     * @param defaultTimeout {@code Timeout}, used when {@code ProxyTimeout} is not set
     * @param threadsPerChild the default {@code max} of a member, as httpd
     */
    public Running start(String serverName, Duration defaultTimeout, int threadsPerChild) {
        Duration t = timeout != null ? timeout : defaultTimeout;
        Map<String, Balancer> running = new LinkedHashMap<>();
        List<AutoCloseable> resources = new ArrayList<>();
        List<Route> routes = new ArrayList<>();
        ReverseMap reverse = new ReverseMap();
        try {
            for (Map.Entry<String, BalancerSpec> e : balancers.entrySet()) {
                Balancer b = balancer(e.getKey(), e.getValue(), List.of(), null, t, threadsPerChild);
                running.put(e.getKey(), b);
                resources.add(b);
            }
            for (String[] r : reverses) {
                if (r[1].regionMatches(true, 0, "balancer://", 0, 11)) {
                    String name = ProxyDirectives.nameOf(r[1]);
                    String sub = r[1].substring(11 + name.length());
                    Balancer b = running.get(name);
                    if (b != null) {
                        reverse.add(r[0], b, sub);
                    }
                } else {
                    reverse.add(r[0], r[1]);
                }
            }
            for (String[] c : cookiePaths) {
                reverse.cookiePath(c[0], c[1]);
            }
            for (String[] c : cookieDomains) {
                reverse.cookieDomain(c[0], c[1]);
            }
            for (Pass p : passes) {
                if (p.target() == null) {
                    routes.add(new Route(p.path(), null, p.inLocation()));
                    continue;
                }
                ProxyHandler.Builder hb;
                if (p.target().regionMatches(true, 0, "balancer://", 0, 11)) {
                    String name = ProxyDirectives.nameOf(p.target());
                    Balancer b = running.get(name);
                    if (!p.params().isEmpty()) {
                        // Balancer parameters on the ProxyPass line: this route gets its own copy.
                        b = balancer(name, balancers.get(name), p.params(), p.line(), t, threadsPerChild);
                        resources.add(b);
                    }
                    hb = ProxyHandler.builder(p.path(), b).balancerPath(p.target().substring(11 + name.length()));
                } else {
                    Member.Builder mb = member(new MemberSpec(p.target(), p.params(), p.line()), threadsPerChild);
                    // A plain worker, not a balancer: no forced recovery, as httpd.
                    Balancer b = Balancer.builder(p.target()).member(mb.build()).timeout(t).forceRecovery(false)
                            .build();
                    resources.add(b);
                    hb = ProxyHandler.builder(p.path(), b);
                }
                ProxyHandler h = hb.preserveHost(preserveHost).addHeaders(addHeaders).timeout(t)
                        .via(via ? (serverName != null ? serverName : "loom-mpm") : null).serverName(serverName)
                        .reverse(reverse).autoReverse(false).upgrade(p.upgrade()).build();
                routes.add(new Route(p.path(), h, p.inLocation()));
            }
        } catch (ConfigException e) {
            // Validated by ProxyDirectives' end-of-parse check; reaching this is a bug.
            new Running(routes, resources).close();
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new Running(List.copyOf(routes), List.copyOf(resources));
    }

    Balancer balancer(String name, BalancerSpec spec, List<String> extra, ConfigLine extraLine, Duration t,
                      int threadsPerChild) throws ConfigException {
        Balancer.Builder b = Balancer.builder(name).timeout(t);
        for (int i = 0; i < spec.set.size(); i++) {
            String[] kv = ProxyParams.split(spec.setLines.get(i), spec.set.get(i));
            ProxyParams.balancer(b, spec.setLines.get(i), kv[0], kv[1]);
        }
        for (String param : extra) {
            String[] kv = ProxyParams.split(extraLine, param);
            ProxyParams.balancer(b, extraLine, kv[0], kv[1]);
        }
        for (MemberSpec m : spec.members) {
            b.member(member(m, threadsPerChild).build());
        }
        return b.build();
    }

    Member.Builder member(MemberSpec spec, int threadsPerChild) throws ConfigException {
        Member.Builder mb;
        try {
            mb = Member.builder(spec.url()).max(threadsPerChild);
        } catch (IllegalArgumentException e) {
            throw spec.line().error(spec.line().name() + ": " + e.getMessage());
        }
        Map<String, String> hc = new HashMap<>();
        for (String param : spec.params()) {
            String[] kv = ProxyParams.split(spec.line(), param);
            ProxyParams.member(mb, spec.line(), kv[0], kv[1], hc);
        }
        mb.healthCheck(ProxyParams.healthCheck(spec.line(), hc, hcExprs));
        return mb;
    }
}
