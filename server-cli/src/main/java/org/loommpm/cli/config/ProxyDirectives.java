package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.PROXY;
import static org.loommpm.cli.config.DirectiveTable.SERVER;
import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.loommpm.proxy.Balancer;
import org.loommpm.proxy.BackendUrl;

/**
 * mod_proxy's directives for a reverse proxy: {@code ProxyPass} (also in {@code <Location>}, with
 * the path taken from the section), {@code ProxyPassReverse} (and its {@code CookiePath} and
 * {@code CookieDomain}), {@code ProxyPreserveHost},
 * {@code ProxyTimeout}, {@code ProxyAddHeaders}, {@code ProxyVia}; mod_proxy_balancer's
 * {@code <Proxy balancer://name>} with {@code BalancerMember} and {@code ProxySet}; and
 * mod_proxy_hcheck's {@code ProxyHCExpr}. Everything is checked while parsing (URLs, parameters,
 * that a named balancer exists), so a bad line is refused with its location before anything
 * starts.
 */
final class ProxyDirectives {
    private ProxyDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        PROXY_PASS("ProxyPass", 1, Integer.MAX_VALUE, SERVER_OR_LOCATION, "[path] !|url [key=value ...] [upgrade=websocket|*]"),
        PROXY_PASS_REVERSE("ProxyPassReverse", 1, 2, SERVER_OR_LOCATION, "[path] url"),
        PROXY_PASS_REVERSE_COOKIE_PATH("ProxyPassReverseCookiePath", 2, 2, SERVER, "backend-path public-path"),
        PROXY_PASS_REVERSE_COOKIE_DOMAIN("ProxyPassReverseCookieDomain", 2, 2, SERVER,
                "backend-domain public-domain"),
        PROXY_PRESERVE_HOST("ProxyPreserveHost", 1, 1, SERVER, "On|Off"),
        PROXY_TIMEOUT("ProxyTimeout", 1, 1, SERVER, "seconds"),
        PROXY_ADD_HEADERS("ProxyAddHeaders", 1, 1, SERVER, "On|Off"),
        PROXY_VIA("ProxyVia", 1, 1, SERVER, "On|Off"),
        BALANCER_MEMBER("BalancerMember", 1, Integer.MAX_VALUE, PROXY, "url [key=value ...]"),
        PROXY_SET("ProxySet", 1, Integer.MAX_VALUE, Set.of(DirectiveTable.Context.SERVER, DirectiveTable.Context.PROXY),
                "[balancer://name] key=value [key=value ...]"),
        PROXY_HC_EXPR("ProxyHCExpr", 2, Integer.MAX_VALUE, SERVER, "name {%{REQUEST_STATUS} =~ /regex/}");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            ProxySettings p = settings(s);
            switch (this) {
                case PROXY_PASS -> proxyPass(s, p, l);
                case PROXY_PASS_REVERSE -> proxyPassReverse(s, p, l);
                case PROXY_PASS_REVERSE_COOKIE_PATH -> p.cookiePaths.add(cookieRule(l));
                case PROXY_PASS_REVERSE_COOKIE_DOMAIN -> p.cookieDomains.add(cookieRule(l));
                case PROXY_PRESERVE_HOST -> p.preserveHost = Args.onOff(l);
                case PROXY_TIMEOUT -> p.timeout = Args.duration(l, l.args().get(0), false);
                case PROXY_ADD_HEADERS -> p.addHeaders = Args.onOff(l);
                case PROXY_VIA -> p.via = Args.onOff(l);
                case BALANCER_MEMBER -> balancerMember(s, p, l);
                case PROXY_SET -> proxySet(s, p, l);
                case PROXY_HC_EXPR -> p.hcExprs.put(l.args().get(0),
                        ProxyParams.expression(l, String.join(" ", l.args().subList(1, l.args().size()))));
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, Set<DirectiveTable.Context> contexts, String syntax) {
            spec = new DirectiveSpec(name, min, max, contexts, syntax);
        }
    }

    private static ProxySettings settings(ParseState s) {
        return s.extension(ProxySettings.KEY, () -> {
            ProxySettings p = new ProxySettings();
            s.atEnd(st -> check(p));
            return p;
        });
    }

    /** Declares {@code <Proxy balancer://name>}; reopening the same name adds to it. */
    static void declareBalancer(ParseState s, ConfigLine l, String name) {
        settings(s).balancers.computeIfAbsent(name, n -> new ProxySettings.BalancerSpec(l));
    }

    /** The name of {@code balancer://name[/path]}, checked. */
    static String balancerName(ConfigLine l, String url) throws ConfigException {
        String name = nameOf(url);
        if (name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_'
                || c == '.')) {
            throw l.error(l.name() + ": '" + url + "' is not balancer://name (letters, digits, - _ .)");
        }
        return name;
    }

    static String nameOf(String url) {
        String rest = url.substring("balancer://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    private static void proxyPass(ParseState s, ProxySettings p, ConfigLine l) throws ConfigException {
        List<String> a = l.args();
        String loc = s.locationPath();
        String path;
        int i;
        if (loc != null) {
            path = loc;
            i = 0;
        } else {
            if (a.size() < 2) {
                throw l.error("ProxyPass takes a path and a URL (or !) outside <Location>: ProxyPass /app/ "
                        + "http://127.0.0.1:9000/");
            }
            path = a.get(0);
            i = 1;
            if (!path.startsWith("/")) {
                throw l.error("ProxyPass: the path must start with /, got '" + path + "'");
            }
        }
        String target = a.get(i);
        List<String> params = new ArrayList<>();
        String upgrade = null;
        for (String param : a.subList(i + 1, a.size())) {
            String[] kv = ProxyParams.split(l, param);
            if (kv[0].equals("upgrade")) {
                upgrade = ProxyParams.upgrade(l, kv[1]);
            } else {
                params.add(param);
            }
        }
        if (target.equals("!")) {
            if (!params.isEmpty() || upgrade != null) {
                throw l.error("ProxyPass ... ! takes no parameters");
            }
            p.passes.add(new ProxySettings.Pass(path, null, List.of(), l, loc != null, null));
            return;
        }
        if (target.regionMatches(true, 0, "ws://", 0, 5)) {
            // mod_proxy_wstunnel's spelling: an http:// backend that WebSocket upgrades may reach.
            target = "http://" + target.substring(5);
            upgrade = upgrade != null ? upgrade : "websocket";
        } else if (target.regionMatches(true, 0, "wss://", 0, 6)) {
            throw l.error("ProxyPass: wss:// backends are not supported (no TLS toward backends); use ws:// or "
                    + "http:// with upgrade=websocket");
        }
        checkTarget(l, target);
        if (path.endsWith("/") != target.endsWith("/") && !target.regionMatches(true, 0, "balancer://", 0, 11)) {
            s.warn(l, "ProxyPass: the path '" + path + "' and the URL '" + target + "' should both end in / or "
                    + "neither (as httpd warns), or requests may get a doubled or missing slash");
        }
        p.passes.add(new ProxySettings.Pass(path, target, List.copyOf(params), l, loc != null, upgrade));
    }

    private static void checkTarget(ConfigLine l, String target) throws ConfigException {
        if (target.regionMatches(true, 0, "balancer://", 0, 11)) {
            balancerName(l, target);
            return;
        }
        try {
            BackendUrl.parse(target);
        } catch (IllegalArgumentException e) {
            throw l.error(l.name() + ": " + e.getMessage());
        }
    }

    private static void proxyPassReverse(ParseState s, ProxySettings p, ConfigLine l) throws ConfigException {
        String loc = s.locationPath();
        List<String> a = l.args();
        if ((loc == null) != (a.size() == 2)) {
            throw l.error(loc == null ? "ProxyPassReverse takes a path and a URL: ProxyPassReverse /app/ http://b:9000/"
                    : "ProxyPassReverse inside <Location> takes only the URL");
        }
        String path = loc != null ? loc : a.get(0);
        String url = a.get(a.size() - 1);
        checkTarget(l, url);
        p.reverses.add(new String[] {path, url});
    }

    /** A cookie rule's two values; neither may hold what would end or split a cookie attribute. */
    private static String[] cookieRule(ConfigLine l) throws ConfigException {
        for (String v : l.args()) {
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                if (c == ';' || c == ',' || c <= ' ' || c == 0x7f) {
                    throw l.error(l.name() + ": '" + v + "' cannot be a cookie attribute's value");
                }
            }
        }
        return new String[] {l.args().get(0), l.args().get(1)};
    }

    private static void balancerMember(ParseState s, ProxySettings p, ConfigLine l) throws ConfigException {
        String url = l.args().get(0);
        ProxySettings.MemberSpec spec = new ProxySettings.MemberSpec(url, List.copyOf(l.args().subList(1,
                l.args().size())), l);
        ProxySettings.BalancerSpec b = p.balancers.get(s.proxySection());
        if (b.members.size() == 64) {
            throw l.error("BalancerMember: a balancer has at most 64 members");
        }
        p.member(spec, 1); // validates the URL and every parameter now, at this line
        String key = memberKey(url);
        for (ProxySettings.MemberSpec other : b.members) {
            if (memberKey(other.url()).equals(key)) {
                throw l.error("BalancerMember: " + url + " is already a member of balancer://" + s.proxySection()
                        + " (line " + other.line().line() + "); httpd shares one worker per URL, so a second "
                        + "line would not add a member: give its parameters on the first");
            }
        }
        b.members.add(spec);
    }

    /**
     * A member's identity: httpd keeps one worker per URL in a balancer (a repeated
     * {@code BalancerMember} shares it), so two lines for the same backend, whatever the host's
     * case or a spelled-out default port, must not become two members and double its share.
     */
    private static String memberKey(String url) {
        BackendUrl u = BackendUrl.parse(url);
        return u.host().toLowerCase(Locale.ROOT) + ":" + u.port() + u.path();
    }

    private static void proxySet(ParseState s, ProxySettings p, ConfigLine l) throws ConfigException {
        List<String> a = l.args();
        String name = s.proxySection();
        int from = 0;
        if (name == null) {
            if (!a.get(0).toLowerCase(Locale.ROOT).startsWith("balancer://") || a.size() < 2) {
                throw l.error("ProxySet outside <Proxy> takes balancer://name then key=value parameters");
            }
            name = balancerName(l, a.get(0));
            from = 1;
        }
        ProxySettings.BalancerSpec spec = p.balancers.computeIfAbsent(name, n -> new ProxySettings.BalancerSpec(l));
        Balancer.Builder probe = Balancer.builder(name);
        for (String param : a.subList(from, a.size())) {
            String[] kv = ProxyParams.split(l, param);
            ProxyParams.balancer(probe, l, kv[0], kv[1]);
            spec.set.add(param);
            spec.setLines.add(l);
        }
    }

    /** After the last line: every balancer named by a ProxyPass exists and has members. */
    private static void check(ProxySettings p) throws ConfigException {
        for (ProxySettings.Pass pass : p.passes) {
            String t = pass.target();
            if (t == null || !t.regionMatches(true, 0, "balancer://", 0, 11)) {
                if (t != null) {
                    p.member(new ProxySettings.MemberSpec(t, pass.params(), pass.line()), 1);
                }
                continue;
            }
            String name = nameOf(t);
            ProxySettings.BalancerSpec b = p.balancers.get(name);
            if (b == null || b.members.isEmpty()) {
                throw pass.line().error("ProxyPass: balancer://" + name + " has no BalancerMember (declare them in "
                        + "<Proxy balancer://" + name + ">)");
            }
            Balancer.Builder probe = Balancer.builder(name);
            for (String param : pass.params()) {
                String[] kv = ProxyParams.split(pass.line(), param);
                ProxyParams.balancer(probe, pass.line(), kv[0], kv[1]);
            }
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
