package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.LOCATION;
import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Directives about what is served: names, documents, types, options, handlers, access. */
final class SiteDirectives {
    /** {@code SetHandler} names this build knows. */
    static final Set<String> HANDLERS = Set.of("server-status", "metrics", "health", "none");

    private SiteDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        SERVER_NAME("ServerName", 1, 1, SERVER, "[scheme://]host[:port]"),
        SERVER_ROOT("ServerRoot", 1, 1, SERVER, "directory"),
        DOCUMENT_ROOT("DocumentRoot", 1, 1, SERVER, "directory"),
        DIRECTORY_INDEX("DirectoryIndex", 1, Integer.MAX_VALUE, SERVER, "disabled | file [file] ..."),
        ADD_TYPE("AddType", 2, Integer.MAX_VALUE, SERVER, "media-type extension [extension] ..."),
        TYPES_CONFIG("TypesConfig", 1, 1, SERVER, "file"),
        OPTIONS("Options", 1, Integer.MAX_VALUE, SERVER, "[+|-]Indexes [+|-]FollowSymLinks | None | All"),
        ENABLE_SENDFILE("EnableSendfile", 1, 1, SERVER, "On|Off"),
        FILE_CACHE_VALID("FileCacheValid", 1, 1, SERVER, "duration"),
        ALLOW_ENCODED_SLASHES("AllowEncodedSlashes", 1, 1, SERVER, "On|Off"),
        SET_HANDLER("SetHandler", 1, 1, LOCATION, "server-status|metrics|health|none|application-name"),
        REQUIRE("Require", 1, Integer.MAX_VALUE, LOCATION,
                "[not] all granted|denied | [not] ip address[/bits] ... | [not] local | [not] method name ... "
                        + "| [not] valid-user | [not] user name ... | [not] group name ...");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            switch (this) {
                case SERVER_NAME -> s.serverName = l.args().get(0);
                case SERVER_ROOT -> serverRoot(s, l);
                case DOCUMENT_ROOT -> documentRoot(s, l);
                case DIRECTORY_INDEX -> directoryIndex(s, l);
                case ADD_TYPE -> addType(s, l);
                case TYPES_CONFIG -> typesConfig(s, l);
                case OPTIONS -> options(s, l);
                case ENABLE_SENDFILE -> s.enableSendfile = Args.onOff(l);
                case FILE_CACHE_VALID -> s.fileCacheValid = Args.duration(l, l.args().get(0), true);
                case ALLOW_ENCODED_SLASHES -> allowEncodedSlashes(s, l);
                case SET_HANDLER -> setHandler(s, l);
                case REQUIRE -> AuthzDirectives.require(s, l);
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, Set<DirectiveTable.Context> contexts, String syntax) {
            spec = new DirectiveSpec(name, min, max, contexts, syntax);
        }
    }

    /**
     * httpd's {@code On} and {@code Off}. Its {@code NoDecode} (a {@code %2F} kept encoded in the
     * path a rule sees) is refused: every rule, the static files and the proxy read the one path
     * decoded once, and a slash that is a separator for one of them and not for another is what
     * lets a request be authorised as one resource and served as another.
     */
    private static void allowEncodedSlashes(ParseState s, ConfigLine l) throws ConfigException {
        if (l.args().get(0).equalsIgnoreCase("NoDecode")) {
            throw l.error("AllowEncodedSlashes NoDecode is not supported: the path is decoded once for every rule "
                    + "(On: %2F is a /, Off: a %2F is refused with 404)");
        }
        s.allowEncodedSlashes = Args.onOff(l);
    }

    private static void serverRoot(ParseState s, ConfigLine l) throws ConfigException {
        Path p = s.resolve(l.args().get(0));
        if (!Files.isDirectory(p)) {
            throw l.error("ServerRoot must be a valid directory: '" + p + "'");
        }
        s.serverRoot = p;
    }

    private static void documentRoot(ParseState s, ConfigLine l) throws ConfigException {
        Path p = s.resolve(l.args().get(0));
        try {
            // The real path: symlink checks compare real paths, so the root must be one too.
            s.documentRoot = p.toRealPath();
        } catch (IOException e) {
            throw l.error("DocumentRoot '" + p + "' does not exist");
        }
        if (!Files.isDirectory(s.documentRoot)) {
            throw l.error("DocumentRoot '" + p + "' is not a directory");
        }
    }

    /**
     * As mod_dir: each line adds to the list (the built-in {@code index.html} only stands until
     * the first), and {@code disabled} alone empties it.
     */
    private static void directoryIndex(ParseState s, ConfigLine l) throws ConfigException {
        if (l.args().size() == 1 && l.args().get(0).equalsIgnoreCase("disabled")) {
            s.directoryIndex = List.of();
            s.directoryIndexSet = true;
            return;
        }
        for (String f : l.args()) {
            if (f.isEmpty() || f.indexOf('/') >= 0 || f.indexOf('\\') >= 0 || f.equals("..") || f.equals(".")) {
                throw l.error("DirectoryIndex takes plain file names, got '" + f + "'");
            }
        }
        List<String> names = new ArrayList<>(s.directoryIndexSet ? s.directoryIndex : List.of());
        names.addAll(l.args());
        s.directoryIndex = List.copyOf(names);
        s.directoryIndexSet = true;
    }

    private static void addType(ParseState s, ConfigLine l) throws ConfigException {
        String type = mediaType(l, l.args().get(0));
        for (String ext : l.args().subList(1, l.args().size())) {
            s.addTypes.put(extension(l, ext), type);
        }
    }

    private static String mediaType(ConfigLine l, String type) throws ConfigException {
        int slash = type.indexOf('/');
        if (slash <= 0 || slash == type.length() - 1 || type.indexOf('\r') >= 0 || type.indexOf('\n') >= 0) {
            throw l.error(l.name() + ": '" + type + "' is not a media type (type/subtype)");
        }
        return type;
    }

    private static String extension(ConfigLine l, String ext) throws ConfigException {
        String e = ext.startsWith(".") ? ext.substring(1) : ext;
        if (e.isEmpty() || e.indexOf('/') >= 0) {
            throw l.error(l.name() + ": '" + ext + "' is not a file extension");
        }
        return e.toLowerCase(Locale.ROOT);
    }

    /** A mime.types file: {@code type ext ext ...} per line, {@code #} comments. */
    private static void typesConfig(ParseState s, ConfigLine l) throws ConfigException {
        Path p = s.resolve(l.args().get(0));
        List<String> lines;
        try {
            lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw l.error("TypesConfig: could not open '" + p + "': " + e.getMessage());
        }
        s.typesConfig.clear();
        for (String line : lines) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] w = t.split("\\s+");
            for (int i = 1; i < w.length; i++) {
                s.typesConfig.put(w[i].toLowerCase(Locale.ROOT), w[0]);
            }
        }
    }

    private static void options(ParseState s, ConfigLine l) throws ConfigException {
        List<String> args = l.args();
        boolean relative = args.get(0).startsWith("+") || args.get(0).startsWith("-");
        boolean indexes = relative && s.indexes;
        boolean follow = relative && s.followSymLinks;
        for (String a : args) {
            char sign = a.isEmpty() ? ' ' : a.charAt(0);
            boolean signed = sign == '+' || sign == '-';
            if (signed != relative) {
                throw l.error("Either all Options must start with + or -, or no Option may.");
            }
            String name = (signed ? a.substring(1) : a).toLowerCase(Locale.ROOT);
            boolean on = sign != '-';
            switch (name) {
                case "indexes" -> indexes = on;
                case "followsymlinks" -> follow = on;
                case "none" -> {
                    if (signed || args.size() > 1) {
                        throw l.error("Options None stands alone");
                    }
                    indexes = false;
                    follow = false;
                }
                case "all" -> {
                    if (signed) {
                        throw l.error("Options All cannot be signed");
                    }
                    indexes = true;
                    follow = true;
                }
                default -> throw l.error("Illegal option " + a + " (this server knows Indexes and FollowSymLinks)");
            }
        }
        s.indexes = indexes;
        s.followSymLinks = follow;
    }

    private static void setHandler(ParseState s, ConfigLine l) throws ConfigException {
        String h = l.args().get(0).toLowerCase(Locale.ROOT);
        if (!HANDLERS.contains(h) && !ApplicationDirectives.loaded(s, h)) {
            List<String> apps = ApplicationDirectives.names(s);
            throw l.error("SetHandler: unknown handler '" + l.args().get(0) + "' (known: server-status, metrics, health, none"
                    + (apps.isEmpty() ? "" : ", and the applications loaded above: " + String.join(", ", apps))
                    + "; an application's name must be loaded with LoadApplication before it is used)");
        }
        s.location.handler = h;
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
