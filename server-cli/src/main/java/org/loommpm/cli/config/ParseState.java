package org.loommpm.cli.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.loommpm.cli.access.AuthConfig;
import org.loommpm.cli.logging.LogLevels;
import org.loommpm.cli.logging.LogSettings;
import org.loommpm.config.ServerConfig;

/**
 * What directives write into while a configuration is read. Each directive's action gets this
 * and the line; {@link #finish} freezes it into a {@link LoomConfig}. Modules added later keep
 * their own state under a key with {@link #extension}.
 */
public final class ParseState {
    /** The engine's typed settings; directives call its setters. */
    public final ServerConfig.Builder engine = ServerConfig.builder();
    /** {@code Listen} addresses seen, to refuse duplicates as httpd does. */
    final Set<InetSocketAddress> listens = new HashSet<>();

    Path serverRoot;
    String serverName;
    Path documentRoot;
    List<String> directoryIndex = List.of("index.html");
    /** Whether a {@code DirectoryIndex} line was read: later ones add to it. */
    boolean directoryIndexSet;
    boolean indexes;
    boolean followSymLinks;
    boolean enableSendfile = true;
    boolean allowEncodedSlashes;
    Duration fileCacheValid = SiteSettings.DEFAULT_FILE_CACHE_VALID;
    boolean welcomePage;
    final Map<String, String> typesConfig = new HashMap<>();
    final Map<String, String> addTypes = new HashMap<>();
    final List<LocationSettings> locations = new ArrayList<>();
    /** The htpasswd and group files read so far, by resolved path: sections naming one share it. */
    final Map<Path, org.loommpm.auth.PasswordFile> passwordFiles = new HashMap<>();
    final Map<Path, org.loommpm.auth.GroupFile> groupFiles = new HashMap<>();

    String errorLog = "/dev/stderr";
    LogLevels levels = LogLevels.DEFAULT;
    final Map<String, String> formats = new HashMap<>(Map.of(
            "common", "%h %l %u %t \"%r\" %>s %b",
            "combined", "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"",
            "referer", "%{Referer}i -> %U",
            "agent", "%{User-agent}i"));
    final List<LogSettings.AccessLogSpec> accessLogs = new ArrayList<>();

    /** Names {@code <IfDefine>} finds: {@code -D} options and {@code Define}s read so far (case-sensitive). */
    final Set<String> defines = new HashSet<>();
    /** {@code Define name value}s read so far, for {@code ${name}}; names ignore case, as in httpd. */
    final Map<String, String> variables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    /** What {@code ${name}} falls back to: the process's environment. */
    final Map<String, String> environment;

    /** The open {@code <Location>} section, or null at the top level. */
    OpenLocation location;
    /** The open {@code <Proxy>} section's balancer name, or null. */
    String proxySection;

    private final List<String> warnings = new ArrayList<>();
    private final Map<String, Object> extensions = new LinkedHashMap<>();
    private final List<Check> checks = new ArrayList<>();

    /** A check of settings that span several directives, run once everything is read. */
    @FunctionalInterface
    public interface Check {
        /** @throws ConfigException located at the directive at fault */
        void run(ParseState state) throws ConfigException;
    }

    /** A {@code <Location>} being read. */
    static final class OpenLocation {
        final String path;
        String handler;
        /** The section's own {@code Require} lines and closed containers; null while it has none. */
        AuthzDirectives.Section authz;
        /** Its authentication directives ({@code AuthType} ...), {@link AuthConfig#NONE} while it has none. */
        AuthConfig auth = AuthConfig.NONE;
        /** The authorization containers open inside it, innermost first. */
        final ArrayDeque<AuthzDirectives.Section> containers = new ArrayDeque<>();

        OpenLocation(String path) {
            this.path = path;
        }
    }

    /** The path of the open {@code <Location>} section, or null at the top level. */
    public String locationPath() {
        return location == null ? null : location.path;
    }

    /** The balancer name of the open {@code <Proxy balancer://name>} section, or null. */
    public String proxySection() {
        return proxySection;
    }

    /**
     * @param serverRoot what relative paths are resolved against until {@code ServerRoot} says otherwise
     * @param environment the environment variables {@code ${name}} falls back to
     */
    ParseState(Path serverRoot, Map<String, String> environment) {
        this.serverRoot = serverRoot.toAbsolutePath().normalize();
        this.environment = environment;
    }

    /**
     * A path argument resolved against {@code ServerRoot}.
     *
     * @throws java.nio.file.InvalidPathException when it cannot be a path (a NUL character):
     *     {@link ConfigParser} turns that into a located configuration error for every directive
     */
    public Path resolve(String path) {
        return serverRoot.resolve(path).normalize();
    }

    /** Records a note for the operator (a value httpd would clamp, say), located at {@code line}. */
    public void warn(ConfigLine line, String message) {
        warn(line.source(), line.line(), message);
    }

    void warn(String source, int line, String message) {
        warnings.add("line " + line + " of " + source + ": " + message);
    }

    /**
     * The state a directive module keeps under {@code key}, created on first use. This is how
     * directives registered later (TLS, HTTP/2) carry their settings into {@link LoomConfig}.
     */
    @SuppressWarnings("unchecked")
    public <T> T extension(String key, Supplier<T> create) {
        return (T) extensions.computeIfAbsent(key, k -> create.get());
    }

    /** Adds a check run after the last directive (and {@code -c} option) was applied. */
    public void atEnd(Check check) {
        checks.add(check);
    }

    void runChecks() throws ConfigException {
        for (Check c : checks) {
            c.run(this);
        }
    }

    LoomConfig finish(String description) {
        Map<String, String> types = new HashMap<>(typesConfig);
        types.putAll(addTypes);
        SiteSettings site = new SiteSettings(serverName, documentRoot, directoryIndex, indexes, followSymLinks,
                enableSendfile, fileCacheValid, Map.copyOf(types), welcomePage, List.copyOf(locations),
                allowEncodedSlashes);
        List<LogSettings.AccessLogSpec> logs = accessLogs.isEmpty()
                ? List.of(new LogSettings.AccessLogSpec("/dev/stdout", formats.get("common")))
                : List.copyOf(accessLogs);
        return new LoomConfig(engine.build(), site, new LogSettings(errorLog, levels, logs), List.copyOf(warnings),
                description, Map.copyOf(extensions));
    }
}
