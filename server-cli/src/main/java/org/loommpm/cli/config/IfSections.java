package org.loommpm.cli.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The tests of httpd 2.4's conditional sections: {@code <IfDefine [!]name>},
 * {@code <IfModule [!]module>}, {@code <IfDirective [!]directive>} and {@code <IfFile [!]path>}.
 * {@link ConfigParser} reads a section whose test holds as if its lines stood outside it, and
 * skips the others unread (their section tags must still match).
 */
final class IfSections {
    /**
     * An httpd module that loom-mpm counts as loaded: what configurations put inside
     * {@code <IfModule>} for it is implemented here.
     *
     * @param file the spelling after the source file ({@code mod_ssl.c})
     * @param symbol the spelling after the module structure ({@code ssl_module})
     * @param directives registered directives that stand for it (DirectivesDocTest checks they exist)
     */
    record Module(String file, String symbol, List<String> directives) {
    }

    /** The modules {@code <IfModule>} finds, in the order docs/configuration.md lists them. */
    static final List<Module> MODULES = List.of(
            new Module("core.c", "core_module", List.of("ServerRoot", "DocumentRoot", "Options", "Define")),
            new Module("http_core.c", "http_module", List.of("KeepAlive", "KeepAliveTimeout", "MaxKeepAliveRequests")),
            new Module("event.c", "mpm_event_module", List.of("StartServers", "ThreadsPerChild", "MaxRequestWorkers",
                    "MinSpareThreads", "MaxSpareThreads", "ThreadLimit", "ServerLimit", "MaxConnectionsPerChild")),
            new Module("mod_mime.c", "mime_module", List.of("AddType", "TypesConfig")),
            new Module("mod_dir.c", "dir_module", List.of("DirectoryIndex")),
            new Module("mod_alias.c", "alias_module", List.of("Redirect", "RedirectMatch", "RedirectPermanent",
                    "RedirectTemp", "Alias", "AliasMatch")),
            new Module("mod_log_config.c", "log_config_module", List.of("LogFormat", "CustomLog")),
            new Module("mod_logio.c", "logio_module", List.of("LogFormat")),
            new Module("mod_authz_core.c", "authz_core_module", List.of("Require")),
            new Module("mod_authz_host.c", "authz_host_module", List.of("Require")),
            new Module("mod_authz_user.c", "authz_user_module", List.of("Require")),
            new Module("mod_authz_groupfile.c", "authz_groupfile_module", List.of("Require", "AuthGroupFile")),
            new Module("mod_authn_core.c", "authn_core_module", List.of("AuthType", "AuthName")),
            new Module("mod_authn_file.c", "authn_file_module", List.of("AuthUserFile")),
            new Module("mod_auth_basic.c", "auth_basic_module", List.of("AuthBasicProvider")),
            new Module("mod_expires.c", "expires_module", List.of("ExpiresActive", "ExpiresByType", "ExpiresDefault")),
            new Module("mod_status.c", "status_module", List.of("SetHandler")),
            new Module("mod_headers.c", "headers_module", List.of("Header", "RequestHeader")),
            new Module("mod_filter.c", "filter_module", List.of("AddOutputFilterByType")),
            new Module("mod_deflate.c", "deflate_module", List.of("DeflateCompressionLevel")),
            new Module("mod_brotli.c", "brotli_module", List.of("BrotliCompressionQuality")),
            new Module("mod_reqtimeout.c", "reqtimeout_module", List.of("RequestReadTimeout")),
            new Module("mod_remoteip.c", "remoteip_module", List.of("RemoteIPHeader", "RemoteIPInternalProxy",
                    "RemoteIPTrustedProxy", "RemoteIPProxyProtocol")),
            new Module("mod_ssl.c", "ssl_module", List.of("SSLEngine", "SSLCertificateFile", "SSLCertificateKeyFile",
                    "SSLProtocol", "SSLCipherSuite", "SSLVerifyClient", "SSLVerifyDepth", "SSLCACertificateFile",
                    "SSLCACertificatePath", "SSLCARevocationFile", "SSLCARevocationCheck")),
            new Module("mod_http2.c", "http2_module", List.of("H2MaxSessionStreams", "H2WindowSize")),
            new Module("mod_proxy.c", "proxy_module", List.of("ProxyPass", "ProxyPassReverse", "ProxyPreserveHost",
                    "ProxyTimeout", "BalancerMember", "ProxySet")),
            new Module("mod_proxy_http.c", "proxy_http_module", List.of("ProxyPass")),
            new Module("mod_proxy_wstunnel.c", "proxy_wstunnel_module", List.of("ProxyPass")),
            new Module("mod_proxy_balancer.c", "proxy_balancer_module", List.of("BalancerMember", "ProxySet")),
            new Module("mod_proxy_hcheck.c", "proxy_hcheck_module", List.of("ProxyHCExpr")),
            new Module("mod_lbmethod_byrequests.c", "lbmethod_byrequests_module", List.of("ProxySet")),
            new Module("mod_lbmethod_bybusyness.c", "lbmethod_bybusyness_module", List.of("ProxySet")));

    /** Both spellings of every module, compared case-sensitively as httpd does. */
    private static final Set<String> MODULE_NAMES = new HashSet<>();

    static {
        for (Module m : MODULES) {
            MODULE_NAMES.add(m.file());
            MODULE_NAMES.add(m.symbol());
        }
    }

    private IfSections() {
    }

    /**
     * Whether the section {@code l} opens ({@code <IfDefine X>} …) is to be read.
     *
     * @param table the directives {@code <IfDirective>} looks for
     * @throws ConfigException when the tag is not one argument, or {@code <IfFile>}'s is no path
     */
    static boolean holds(ParseState st, DirectiveTable table, ConfigLine l) throws ConfigException {
        String section = l.name().substring(1);
        String kind = section.toLowerCase(Locale.ROOT);
        String arg = l.args().size() == 1 ? l.args().get(0) : "";
        boolean not = arg.startsWith("!");
        String name = not ? arg.substring(1) : arg;
        if (name.isEmpty()) {
            throw l.error("<" + section + "> takes one argument: <" + section + " [!]" + switch (kind) {
                case "ifdefine" -> "parameter-name";
                case "ifmodule" -> "module-file|module-identifier";
                case "ifdirective" -> "directive-name";
                default -> "filename";
            } + ">");
        }
        boolean present = switch (kind) {
            case "ifdefine" -> st.defines.contains(name);
            case "ifmodule" -> MODULE_NAMES.contains(name);
            // Include and IncludeOptional are the parser's own, but httpd's directives all the same.
            case "ifdirective" -> table.lookup(name) != null || name.equalsIgnoreCase("Include")
                    || name.equalsIgnoreCase("IncludeOptional");
            default -> exists(st, l, name);
        };
        return present != not;
    }

    /** {@code <IfFile>}: anything at the path (a directory too), relative to ServerRoot, as httpd's stat. */
    private static boolean exists(ParseState st, ConfigLine l, String path) throws ConfigException {
        try {
            return Files.exists(st.resolve(path));
        } catch (InvalidPathException e) {
            throw l.error(l.name() + ">: '" + e.getInput() + "' is not a valid path (" + e.getReason() + ")");
        }
    }
}
