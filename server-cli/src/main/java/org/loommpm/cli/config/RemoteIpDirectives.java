package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.loommpm.cli.access.IpRange;
import org.loommpm.cli.remoteip.RemoteIpSettings;
import org.loommpm.config.ProxyProtocolSettings;

/**
 * mod_remoteip's directives: the PROXY protocol (engine settings: {@code RemoteIPProxyProtocol},
 * its timeout and exceptions) and the client-list header ({@code RemoteIPHeader} with the proxies
 * allowed to set it, kept as {@link RemoteIpSettings} under its parse-state key). Addresses are
 * literals or CIDR blocks (as {@code Require ip}): never looked up.
 */
final class RemoteIpDirectives {
    private RemoteIpDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        PROXY_PROTOCOL("RemoteIPProxyProtocol", 1, 1, "On|Off"),
        PROXY_PROTOCOL_TIMEOUT("RemoteIPProxyProtocolTimeout", 1, 1, "seconds"),
        PROXY_PROTOCOL_EXCEPTIONS("RemoteIPProxyProtocolExceptions", 1, Integer.MAX_VALUE, "address[/bits] ..."),
        HEADER("RemoteIPHeader", 1, 1, "header-field"),
        PROXIES_HEADER("RemoteIPProxiesHeader", 1, 1, "header-field"),
        INTERNAL_PROXY("RemoteIPInternalProxy", 1, Integer.MAX_VALUE, "address[/bits] ..."),
        TRUSTED_PROXY("RemoteIPTrustedProxy", 1, Integer.MAX_VALUE, "address[/bits] ..."),
        INTERNAL_PROXY_LIST("RemoteIPInternalProxyList", 1, 1, "file"),
        TRUSTED_PROXY_LIST("RemoteIPTrustedProxyList", 1, 1, "file");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            ProxyProtocolSettings pp = s.engine.proxyProtocol();
            RemoteIpSettings site = s.extension(RemoteIpSettings.KEY, RemoteIpSettings::new);
            switch (this) {
                case PROXY_PROTOCOL -> s.engine.proxyProtocol(pp.withAll(Args.onOff(l)));
                case PROXY_PROTOCOL_TIMEOUT -> s.engine.proxyProtocol(
                        pp.withHeaderTimeout(Args.duration(l, l.args().get(0), false)));
                case PROXY_PROTOCOL_EXCEPTIONS -> {
                    List<IpRange> ranges = ranges(l, l.args());
                    Predicate<InetAddress> listed = a -> ranges.stream().anyMatch(r -> r.contains(a));
                    s.engine.proxyProtocol(pp.withExceptions(pp.exceptions().or(listed)));
                }
                case HEADER -> site.header(fieldName(l));
                case PROXIES_HEADER -> site.proxiesHeader(fieldName(l));
                case INTERNAL_PROXY, TRUSTED_PROXY -> {
                    for (IpRange r : ranges(l, l.args())) {
                        site.add(new RemoteIpSettings.Proxy(r, this == INTERNAL_PROXY));
                    }
                }
                case INTERNAL_PROXY_LIST, TRUSTED_PROXY_LIST -> {
                    for (IpRange r : ranges(l, listFile(s, l))) {
                        site.add(new RemoteIpSettings.Proxy(r, this == INTERNAL_PROXY_LIST));
                    }
                }
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, SERVER, syntax);
        }
    }

    /**
     * A {@code RemoteIP*ProxyList} file: addresses and blocks separated by blanks, one or more a
     * line, {@code #} to the end of a line a comment (mod_remoteip's format).
     */
    private static List<String> listFile(ParseState s, ConfigLine l) throws ConfigException {
        java.nio.file.Path p = s.resolve(l.args().get(0));
        List<String> out = new ArrayList<>();
        try {
            for (String line : java.nio.file.Files.readAllLines(p, java.nio.charset.StandardCharsets.UTF_8)) {
                int hash = line.indexOf('#');
                String t = (hash < 0 ? line : line.substring(0, hash)).strip();
                if (!t.isEmpty()) {
                    out.addAll(List.of(t.split("\\s+")));
                }
            }
        } catch (java.io.IOException e) {
            throw l.error(l.name() + ": could not read '" + p + "': " + e.getMessage());
        }
        return out;
    }

    private static List<IpRange> ranges(ConfigLine l, List<String> specs) throws ConfigException {
        List<IpRange> out = new ArrayList<>();
        for (String a : specs) {
            try {
                out.add(IpRange.parse(a));
            } catch (IllegalArgumentException e) {
                throw l.error(l.name() + ": " + e.getMessage() + " (addresses and CIDR blocks only: no host names)");
            }
        }
        return out;
    }

    private static String fieldName(ConfigLine l) throws ConfigException {
        String name = l.args().get(0);
        if (!name.chars().allMatch(c -> c > 0x20 && c < 0x7F && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0)) {
            throw l.error(l.name() + ": '" + name + "' is not a header field name");
        }
        return name;
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
