package org.loommpm.cli.remoteip;

import java.util.ArrayList;
import java.util.List;
import org.loommpm.cli.access.IpRange;

/**
 * mod_remoteip's request-header settings, as the directives left them. Mutable while the
 * configuration is read (kept under {@link #KEY} in the parse state), then only read.
 */
public final class RemoteIpSettings {
    /** The parse-state extension key. */
    public static final String KEY = "remoteip";

    /**
     * A proxy allowed to present the client's address.
     *
     * @param range its address block
     * @param internal {@code RemoteIPInternalProxy} (an intranet proxy: may present private
     *                 addresses) rather than {@code RemoteIPTrustedProxy}
     */
    public record Proxy(IpRange range, boolean internal) {
    }

    private String header;
    private String proxiesHeader;
    private final List<Proxy> proxies = new ArrayList<>();

    /** {@code RemoteIPHeader}: the field carrying the client list (X-Forwarded-For), or null: off. */
    public String header() {
        return header;
    }

    /** {@code RemoteIPProxiesHeader}: where the trusted proxies walked through are recorded, or null. */
    public String proxiesHeader() {
        return proxiesHeader;
    }

    /** Every {@code RemoteIPInternalProxy} and {@code RemoteIPTrustedProxy} block, in file order. */
    public List<Proxy> proxies() {
        return List.copyOf(proxies);
    }

    /** Sets {@code RemoteIPHeader} (while the configuration is read). */
    public void header(String name) {
        header = name;
    }

    /** Sets {@code RemoteIPProxiesHeader} (while the configuration is read). */
    public void proxiesHeader(String name) {
        proxiesHeader = name;
    }

    /** Adds a {@code RemoteIPInternalProxy} or {@code RemoteIPTrustedProxy} block (while the configuration is read). */
    public void add(Proxy p) {
        proxies.add(p);
    }
}
