package org.loommpm.proxy;

import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.Headers;

/**
 * {@code ProxyPassReverse}: a backend's {@code Location}, {@code Content-Location} and {@code URI}
 * fields that point into a mapped backend URL are rewritten to the client-facing path, as an
 * absolute URL built from the request's scheme and {@code Host} (httpd builds it from the
 * request too); other values pass unchanged. {@code ProxyPassReverseCookiePath} and
 * {@code ProxyPassReverseCookieDomain}: a {@code Set-Cookie}'s {@code Path} or {@code Domain}
 * attribute that starts with a mapped backend value is replaced by the client-facing one, as
 * mod_proxy does (the whole value, the first matching rule). Filled while the configuration is
 * built, then only read; a handler adds its own rules to a copy.
 */
public final class ReverseMap {
    private static final String[] FIELDS = {"Location", "Content-Location", "URI"};

    private record Entry(String path, String backend) {
    }

    private final List<Entry> entries = new ArrayList<>();
    /** Cookie rules, {@code path} the client-facing value and {@code backend} the backend's prefix. */
    private final List<Entry> cookiePaths = new ArrayList<>();
    private final List<Entry> cookieDomains = new ArrayList<>();

    /** An empty map: rewrites nothing. */
    public ReverseMap() {
    }

    /**
     * Maps backend URLs starting with {@code backendUrl} back to {@code path}.
     *
     * @param path the client-facing path prefix, e.g. {@code /app/}
     * @param backendUrl e.g. {@code http://127.0.0.1:9000/}
     * @return this map
     */
    public ReverseMap add(String path, String backendUrl) {
        entries.add(new Entry(path, backendUrl));
        return this;
    }

    /**
     * Maps every member of {@code balancer} back to {@code path} (httpd's
     * {@code ProxyPassReverse /path balancer://name/sub}).
     *
     * @param subPath the path after the balancer's name, appended to each member's URL
     * @param path the client-facing path prefix
     * @param balancer the balancer whose members are mapped
     * @return this map
     */
    public ReverseMap add(String path, Balancer balancer, String subPath) {
        for (Member m : balancer.members()) {
            add(path, ProxyHandler.join(m.url().toString(), subPath));
        }
        return this;
    }

    /**
     * {@code ProxyPassReverseCookiePath}: a {@code Set-Cookie} whose {@code Path} starts with
     * {@code backendPath} gets {@code path} instead.
     *
     * @param backendPath the backend's path prefix, e.g. {@code /}
     * @param path the client-facing path, e.g. {@code /app/}
     * @return this map
     */
    public ReverseMap cookiePath(String backendPath, String path) {
        cookiePaths.add(new Entry(path, backendPath));
        return this;
    }

    /**
     * {@code ProxyPassReverseCookieDomain}: a {@code Set-Cookie} whose {@code Domain} starts with
     * {@code backendDomain} (ignoring case) gets {@code domain} instead.
     *
     * @param backendDomain the domain the backend sets, e.g. {@code backend.internal}
     * @param domain the client-facing domain, e.g. {@code www.example.com}
     * @return this map
     */
    public ReverseMap cookieDomain(String backendDomain, String domain) {
        cookieDomains.add(new Entry(domain, backendDomain));
        return this;
    }

    /** {@return a map with the same rules, to add to without changing this one} */
    ReverseMap copy() {
        ReverseMap c = new ReverseMap();
        c.entries.addAll(entries);
        c.cookiePaths.addAll(cookiePaths);
        c.cookieDomains.addAll(cookieDomains);
        return c;
    }

    boolean isEmpty() {
        return entries.isEmpty() && cookiePaths.isEmpty() && cookieDomains.isEmpty();
    }

    /** Rewrites the response fields in place, for a client that sent {@code host} (or none) over TLS or not. */
    void rewrite(Headers h, String host, boolean secure) {
        for (String f : FIELDS) {
            String v = h.first(f);
            if (v != null) {
                String mapped = map(v, host, secure);
                if (mapped != null) {
                    h.set(f, mapped);
                }
            }
        }
        if ((!cookiePaths.isEmpty() || !cookieDomains.isEmpty()) && h.contains("Set-Cookie")) {
            List<String> cookies = h.all("Set-Cookie");
            h.remove("Set-Cookie");
            for (String c : cookies) {
                h.add("Set-Cookie", cookie(c));
            }
        }
    }

    /**
     * {@return a Set-Cookie value with its Path and Domain attributes mapped back}
     *
     * @param value a backend's {@code Set-Cookie} field value
     */
    public String cookie(String value) {
        StringBuilder out = null;
        int copied = 0;
        // The first element is the cookie's name=value: a cookie named "path" is not an attribute.
        int at = value.indexOf(';');
        while (at >= 0) {
            int end = value.indexOf(';', at + 1);
            int stop = end < 0 ? value.length() : end;
            int name = at + 1;
            while (name < stop && (value.charAt(name) == ' ' || value.charAt(name) == '\t')) {
                name++;
            }
            int from = -1;
            String mapped = null;
            if (value.regionMatches(true, name, "path=", 0, 5)) {
                from = name + 5;
                mapped = mapAttribute(cookiePaths, value.substring(from, stop), false);
            } else if (value.regionMatches(true, name, "domain=", 0, 7)) {
                from = name + 7;
                mapped = mapAttribute(cookieDomains, value.substring(from, stop), true);
            }
            if (mapped != null) {
                if (out == null) {
                    out = new StringBuilder(value.length() + 16);
                }
                out.append(value, copied, from).append(mapped);
                copied = stop;
            }
            at = end;
        }
        return out == null ? value : out.append(value, copied, value.length()).toString();
    }

    /** {@return the client-facing value of the first rule whose backend value starts {@code v}, or null} */
    private static String mapAttribute(List<Entry> rules, String v, boolean ignoreCase) {
        for (Entry e : rules) {
            if (v.regionMatches(ignoreCase, 0, e.backend, 0, e.backend.length())) {
                return e.path;
            }
        }
        return null;
    }

    /** The rewritten value, or null when no entry applies. */
    private String map(String value, String host, boolean secure) {
        for (Entry e : entries) {
            if (value.startsWith(e.backend)) {
                String path = e.path + value.substring(e.backend.length());
                if (path.startsWith("//")) {
                    path = path.substring(1);
                }
                if (host == null) {
                    return path;
                }
                return (secure ? "https://" : "http://") + host + path;
            }
        }
        return null;
    }
}
