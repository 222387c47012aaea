package org.loommpm.cli.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.loommpm.cli.access.AccessRule;
import org.loommpm.cli.access.Authz;
import org.loommpm.cli.access.IpRange;

/**
 * mod_authz_core inside a {@code <Location>}: {@code Require} lines and the containers
 * {@code <RequireAll>}, {@code <RequireAny>}, {@code <RequireNone>}, nested freely, built into
 * the section's {@link AccessRule}. The configuration-time refusals are httpd's: a negation
 * inside an alternative ({@code Require not} or {@code <RequireNone>} directly in
 * {@code <Location>}, a {@code <RequireAny>} or a {@code <RequireNone>}) has no effect; an empty
 * container; a {@code <RequireAll>} holding only negations, which could never grant. As in httpd,
 * a container inside one of the same kind ({@code <RequireAll>} in {@code <RequireAll>},
 * {@code <RequireAny>} in {@code <RequireAny>}, the section or {@code <RequireNone>}) is merged
 * into it before that last check.
 */
final class AuthzDirectives {
    /** Providers httpd has and this server refuses, with the reason. */
    private static final Map<String, String> REFUSED = refused();

    private AuthzDirectives() {
    }

    /** A container being read, or the section's own implicit {@code <RequireAny>} (no opening line). */
    static final class Section {
        final ConfigLine opening;
        final Authz.Container kind;
        final List<Authz> children = new ArrayList<>();

        Section(ConfigLine opening, Authz.Container kind) {
            this.opening = opening;
            this.kind = kind;
        }

        /** mod_authz_core's logical operator: {@code <RequireNone>} is a negated alternative. */
        boolean alternatives() {
            return kind != Authz.Container.ALL;
        }
    }

    private static Map<String, String> refused() {
        String auth = " needs a user source this server does not have (files by owner, DBM, SQL, LDAP): use "
                + "Require user|group|valid-user with AuthUserFile and AuthGroupFile";
        Map<String, String> m = new HashMap<>();
        for (String p : List.of("file-owner", "file-group", "dbm-group", "dbd-group",
                "ldap-user", "ldap-group", "ldap-dn", "ldap-attribute", "ldap-filter", "ldap-search")) {
            m.put(p, auth);
        }
        m.put("host", " needs a reverse and a forward DNS lookup of the client on every request, and this server "
                + "does no DNS lookups: use Require ip with the hosts' addresses");
        m.put("forward-dns", " needs a DNS lookup of the name on every request, and this server does no DNS "
                + "lookups: use Require ip with the name's addresses");
        m.put("env", " tests environment variables, and this server has none (no SetEnv, SetEnvIf, BrowserMatch)");
        m.put("expr", " needs httpd's expression language (ap_expr), which this server does not have");
        return Map.copyOf(m);
    }

    /** {@code <RequireAll>}, {@code <RequireAny>} or {@code <RequireNone>}: opens a container. */
    static void open(ParseState st, ConfigLine l) throws ConfigException {
        Authz.Container kind = kind(l.name().substring(1));
        if (st.location == null) {
            throw l.error(kind.tag() + " is only allowed within <Location> sections");
        }
        if (!l.args().isEmpty()) {
            throw l.error(kind.tag() + " directive doesn't take additional arguments");
        }
        st.location.containers.push(new Section(l, kind));
    }

    /**
     * {@code </RequireAll>} and the others: closes the innermost container, checked as httpd
     * checks it. The parser has matched the tag with the innermost open section already.
     */
    static void close(ParseState st) throws ConfigException {
        ParseState.OpenLocation o = st.location;
        Section s = o.containers.pop();
        Authz.Container kind = s.kind;
        if (s.children.isEmpty()) {
            throw s.opening.error(kind.tag() + " directive contains no authorization directives");
        }
        Section parent = current(o);
        if (kind == Authz.Container.NONE && parent.alternatives()) {
            throw s.opening.error(kind.tag() + " directive has no effect in " + parent.kind.tag() + " directive");
        }
        if (kind != Authz.Container.NONE && s.alternatives() == parent.alternatives()) {
            // httpd's associativity: the children join the parent, and are checked with its.
            parent.children.addAll(s.children);
            return;
        }
        if (s.children.stream().allMatch(Authz::negated)) {
            throw s.opening.error(kind.tag() + " directive contains only negative authorization directives");
        }
        parent.children.add(Authz.section(kind, s.children));
    }

    /**
     * At {@code </Location>}: the section's rule, or null when it has no {@code Require} (it
     * then inherits the rule of the sections before it).
     */
    static AccessRule finish(ParseState.OpenLocation o) {
        if (o.authz == null) {
            return null;
        }
        List<Authz> c = o.authz.children;
        // An alternative of one is that one: its answer, neutral included, passes through unchanged.
        return new AccessRule(c.size() == 1 ? c.get(0) : Authz.section(Authz.Container.ANY, c));
    }

    /** The innermost open container, else the section's implicit {@code <RequireAny>} (created on first use). */
    private static Section current(ParseState.OpenLocation o) {
        if (!o.containers.isEmpty()) {
            return o.containers.peek();
        }
        if (o.authz == null) {
            o.authz = new Section(null, Authz.Container.ANY);
        }
        return o.authz;
    }

    /** The container a tag names, without its {@code <} or {@code </}. */
    private static Authz.Container kind(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "requireall" -> Authz.Container.ALL;
            case "requireany" -> Authz.Container.ANY;
            case "requirenone" -> Authz.Container.NONE;
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** {@code Require [not] provider args...}: one provider, added to the innermost container. */
    static void require(ParseState s, ConfigLine l) throws ConfigException {
        List<String> args = l.args();
        boolean negate = args.get(0).equalsIgnoreCase("not");
        if (negate && args.size() == 1) {
            throw l.error("Require not needs a provider: Require not all|ip|local|method ...");
        }
        String name = args.get(negate ? 1 : 0);
        Authz node = provider(l, name, args.subList(negate ? 2 : 1, args.size()), negate);
        Section parent = current(s.location);
        if (negate && parent.alternatives()) {
            throw l.error("negative Require directive has no effect in " + parent.kind.tag() + " directive");
        }
        parent.children.add(node);
    }

    private static Authz provider(ConfigLine l, String name, List<String> rest, boolean negate) throws ConfigException {
        String kind = name.toLowerCase(Locale.ROOT);
        switch (kind) {
            case "all" -> {
                if (rest.size() != 1) {
                    throw l.error("Require all takes one argument: granted or denied");
                }
                String v = rest.get(0).toLowerCase(Locale.ROOT);
                if (!v.equals("granted") && !v.equals("denied")) {
                    throw l.error("Require all takes granted or denied, got '" + rest.get(0) + "'");
                }
                return Authz.all(v.equals("granted"), negate);
            }
            case "ip" -> {
                if (rest.isEmpty()) {
                    throw l.error("Require ip takes at least one address[/bits]");
                }
                List<IpRange> ranges = new ArrayList<>();
                for (String a : rest) {
                    try {
                        ranges.add(IpRange.parse(a));
                    } catch (IllegalArgumentException e) {
                        throw l.error("Require ip: " + e.getMessage());
                    }
                }
                return Authz.ip(ranges, negate);
            }
            case "local" -> {
                if (!rest.isEmpty()) {
                    // httpd ignores them; an address here is almost certainly meant for Require ip.
                    throw l.error("Require local takes no arguments (for addresses use Require ip)");
                }
                return Authz.local(negate);
            }
            case "method" -> {
                if (rest.isEmpty()) {
                    throw l.error("Require method takes at least one method");
                }
                try {
                    return Authz.method(rest, negate);
                } catch (IllegalArgumentException e) {
                    throw l.error("Require method: " + e.getMessage());
                }
            }
            case "ssl-verify-client" -> {
                if (!rest.isEmpty()) {
                    throw l.error("Require ssl-verify-client takes no arguments");
                }
                return Authz.sslVerifyClient(negate);
            }
            case "valid-user" -> {
                if (!rest.isEmpty()) {
                    throw l.error("Require valid-user takes no arguments (for names use Require user)");
                }
                return Authz.validUser(negate);
            }
            case "user" -> {
                if (rest.isEmpty()) {
                    throw l.error("Require user takes at least one user name");
                }
                return Authz.user(rest, negate);
            }
            case "group" -> {
                if (rest.isEmpty()) {
                    throw l.error("Require group takes at least one group name");
                }
                return Authz.group(rest, negate);
            }
            default -> {
                String why = REFUSED.get(kind);
                if (why != null) {
                    throw l.error("Require " + name + why);
                }
                throw l.error("Require: unknown provider '" + name + "' (this server knows all, ip, local, method)");
            }
        }
    }
}
