package org.loommpm.cli.remoteip;

import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * mod_remoteip's walk of a client-list header ({@code X-Forwarded-For}), pure: from the right,
 * each address is accepted as the client while whoever presented it (the socket's peer first,
 * then each accepted address in turn) is a listed proxy. The walk stops at the first presenter
 * that is not listed, at a value that is not an IP literal, or, unless every presenter so far
 * was an internal proxy, at a private address (10/8, 127/8, 169.254/16, 172.16/12, 192.168/16,
 * and IPv6 outside 2000::/3): only {@code RemoteIPInternalProxy} presenters may vouch for
 * intranet clients. With no proxy listed, every peer is trusted as an external proxy (httpd's
 * rule: only sound when nothing but the balancer can reach this server). Host names are never
 * looked up. Immutable: any thread.
 */
public final class RemoteIpResolver {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final List<RemoteIpSettings.Proxy> proxies;

    /** @param proxies the listed proxies (empty: every peer is an external trusted proxy) */
    public RemoteIpResolver(List<RemoteIpSettings.Proxy> proxies) {
        this.proxies = List.copyOf(proxies);
    }

    /**
     * What the walk found.
     *
     * @param client the client's address, or null when nothing in the header was accepted
     * @param remaining what is left of the header, unwalked (null: all of it was consumed)
     * @param trustedProxies the external trusted proxies walked through, in walk order (the
     *                       socket's peer first), as httpd lists them; internal ones are not recorded
     */
    public record Result(InetAddress client, String remaining, List<String> trustedProxies) {
    }

    /** Walks {@code header} (the comma-joined field values) presented by {@code peer}. */
    public Result resolve(InetAddress peer, String header) {
        boolean internal = !proxies.isEmpty();
        InetAddress presenter = peer;
        InetAddress client = null;
        String remaining = header;
        List<String> trusted = new ArrayList<>();
        while (remaining != null) {
            if (!proxies.isEmpty()) {
                RemoteIpSettings.Proxy match = match(presenter);
                if (match == null) {
                    break;
                }
                // An internal proxy may present an external one, not the other way round.
                internal = internal && match.internal();
            }
            int comma = remaining.lastIndexOf(',');
            String candidate = (comma < 0 ? remaining : remaining.substring(comma + 1)).strip();
            String rest = comma < 0 ? null : remaining.substring(0, comma);
            if (candidate.isEmpty()) {
                break;
            }
            InetAddress a = literal(candidate);
            if (a == null) {
                LOG.log(Level.DEBUG, "LM2210 RemoteIPHeader value ''{0}'' is not an IP address: ignored", candidate);
                break;
            }
            if (!internal && isPrivate(a)) {
                LOG.log(Level.DEBUG, "LM2211 RemoteIPHeader value ''{0}'' is a private address presented by an "
                        + "external proxy: ignored", candidate);
                break;
            }
            if (!internal) {
                trusted.add(presenter.getHostAddress());
            }
            presenter = a;
            client = a;
            remaining = rest;
        }
        return new Result(client, remaining, List.copyOf(trusted));
    }

    private RemoteIpSettings.Proxy match(InetAddress a) {
        for (RemoteIpSettings.Proxy p : proxies) {
            if (p.range().contains(a)) {
                return p;
            }
        }
        return null;
    }

    /** An IPv4 dotted quad or an IPv6 literal (IPv4-mapped ones as IPv4), else null. Never a lookup. */
    static InetAddress literal(String s) {
        if (s.length() > 45) {
            return null;
        }
        boolean colon = s.indexOf(':') >= 0;
        if (colon && s.charAt(0) == '.') {
            // InetAddress.getByName takes a literal only when the string starts with a hex digit
            // or a colon: it would look ".:1" up as a host name, on the poller.
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '.' || (c >= '0' && c <= '9')
                    || (colon && (c == ':' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
            if (!ok) {
                return null;
            }
        }
        if (!colon) {
            String[] parts = s.split("\\.", -1);
            if (parts.length != 4) {
                return null;
            }
            for (String p : parts) {
                if (p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255) {
                    return null;
                }
            }
        }
        try {
            // A dotted quad, or a colon string starting with a hex digit or a colon: parsed as a
            // literal, never resolved.
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** httpd's "intranet" test: RFC 3330 private and local IPv4 blocks, IPv6 outside 2000::/3. */
    static boolean isPrivate(InetAddress a) {
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int b0 = b[0] & 0xFF;
            int b1 = b[1] & 0xFF;
            return b0 == 10 || b0 == 127 || (b0 == 169 && b1 == 254) || (b0 == 172 && (b1 & 0xF0) == 16)
                    || (b0 == 192 && b1 == 168);
        }
        return a instanceof Inet6Address && (b[0] & 0xE0) != 0x20;
    }
}
