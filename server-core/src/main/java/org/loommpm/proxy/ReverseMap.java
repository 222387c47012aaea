package org.loommpm.proxy;

import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.Headers;

/**
 * {@code ProxyPassReverse}: a backend's {@code Location}, {@code Content-Location} and {@code URI}
 * fields that point into a mapped backend URL are rewritten to the client-facing path, as an
 * absolute URL built from the request's scheme and {@code Host} (httpd builds it from the
 * request too); other values pass unchanged. Immutable once built.
 */
public final class ReverseMap {
    private static final String[] FIELDS = {"Location", "Content-Location", "URI"};

    private record Entry(String path, String backend) {
    }

    private final List<Entry> entries = new ArrayList<>();

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

    boolean isEmpty() {
        return entries.isEmpty();
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
