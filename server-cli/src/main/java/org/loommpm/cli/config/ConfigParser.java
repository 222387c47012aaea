package org.loommpm.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.loommpm.cli.access.AuthConfig;

/**
 * Reads a configuration: {@code -C} lines, then the file (or the embedded default), then
 * {@code -c} lines, through one {@link DirectiveTable}. Handles what the table cannot:
 * {@code Include}/{@code IncludeOptional} with globs, {@code ${name}} variables (see
 * {@link ConfigVariables}), and sections: {@code <Location>}, {@code <Proxy>} and the conditional
 * {@code <IfDefine>}, {@code <IfModule>}, {@code <IfDirective>}, {@code <IfFile>} (see
 * {@link IfSections}), and the authorization containers inside {@code <Location>} (see
 * {@link AuthzDirectives}). Sections nest properly within one file (or the {@code -C} or
 * {@code -c} lines), as in httpd.
 */
public final class ConfigParser {
    private static final int MAX_INCLUDE_DEPTH = 16;
    private static final String INVALID = "Invalid command '%s', perhaps misspelled or defined by a module "
            + "not included in the server configuration";

    private final DirectiveTable table;
    private final Map<String, String> environment;

    /** @param table the directives to accept; {@code ${name}} falls back to the process's environment */
    public ConfigParser(DirectiveTable table) {
        this(table, System.getenv());
    }

    /**
     * @param table the directives to accept
     * @param environment the variables {@code ${name}} falls back to when no {@code Define} gave it
     */
    ConfigParser(DirectiveTable table, Map<String, String> environment) {
        this.table = table;
        this.environment = environment;
    }

    /**
     * What to read.
     *
     * @param file the main file, or null for the embedded default
     * @param embedded the embedded default's text, used when {@code file} is null
     * @param before {@code -C} directives, applied first
     * @param after {@code -c} directives, applied last
     * @param defines {@code -D} names, defined before anything is read
     */
    public record Source(Path file, String embedded, List<String> before, List<String> after, List<String> defines) {
        /** Without {@code -D} names. */
        public Source(Path file, String embedded, List<String> before, List<String> after) {
            this(file, embedded, before, after, List.of());
        }
    }

    /** A section opened and not yet closed in the file being read: {@code Location}, {@code IfDefine} … */
    private record Section(String name, ConfigLine opening) {
        /** The section {@code opening} opens, named as written there. */
        Section(ConfigLine opening) {
            this(opening.name().substring(1), opening);
        }
    }

    /**
     * Parses and validates everything.
     *
     * @throws ConfigException the first error, located
     */
    public LoomConfig parse(Source src) throws ConfigException {
        Path root = src.file() != null ? src.file().toAbsolutePath().getParent() : Path.of("");
        ParseState st = new ParseState(root, environment);
        st.defines.addAll(src.defines());
        try {
            return parse(src, st);
        } catch (ConfigException | RuntimeException e) {
            // The jars LoadApplication opened above the error are not used: a refused SIGHUP
            // would otherwise keep their class loaders and file handles open for good.
            ApplicationDirectives.closeLoaders(st);
            throw e;
        }
    }

    private LoomConfig parse(Source src, ParseState st) throws ConfigException {
        st.welcomePage = src.file() == null;
        apply(st, lexAll("-C option", src.before()), 0);
        String description;
        if (src.file() != null) {
            Path f = src.file().toAbsolutePath().normalize();
            apply(st, ConfigLexer.lines(f.toString(), read(f, "-f option", 0)), 0);
            description = f.toString();
        } else {
            apply(st, ConfigLexer.lines("embedded default", src.embedded()), 0);
            description = "embedded default";
        }
        apply(st, lexAll("-c option", src.after()), 0);
        st.runChecks();
        try {
            return st.finish(description);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(description, 0, e.getMessage());
        }
    }

    private static List<ConfigLexer.Line> lexAll(String source, List<String> lines) {
        List<ConfigLexer.Line> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            ConfigLexer.Line l = ConfigLexer.line(source, i + 1, lines.get(i));
            if (l != null) {
                out.add(l);
            }
        }
        return out;
    }

    private static String read(Path f, String from, int line) throws ConfigException {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(from, line, "could not read configuration file '" + f + "': "
                    + e.getClass().getSimpleName() + " " + e.getMessage());
        }
    }

    /**
     * Reads one file's lines (or the {@code -C}, {@code -c} lines) in order: each is expanded,
     * split, then applied, so a {@code Define} counts from the next line on.
     */
    private void apply(ParseState st, List<ConfigLexer.Line> lines, int depth) throws ConfigException {
        Deque<Section> open = new ArrayDeque<>();
        for (int i = 0; i < lines.size(); i++) {
            ConfigLine l = ConfigLexer.split(ConfigVariables.expand(st, lines.get(i)));
            if (l == null) {
                continue;
            }
            String name = l.name().toLowerCase(Locale.ROOT);
            switch (name) {
                case "<location" -> {
                    openLocation(st, l);
                    open.push(new Section(l));
                }
                case "<requireall", "<requireany", "<requirenone" -> {
                    AuthzDirectives.open(st, l);
                    open.push(new Section(l));
                }
                case "<proxy" -> {
                    openProxy(st, l);
                    open.push(new Section(l));
                }
                case "<ifdefine", "<ifmodule", "<ifdirective", "<iffile" -> {
                    Section s = new Section(l);
                    if (IfSections.holds(st, table, l)) {
                        open.push(s);
                    } else {
                        i = skip(lines, i + 1, s);
                    }
                }
                case "include", "includeoptional" -> include(st, l, name.equals("includeoptional"), depth);
                default -> {
                    if (name.startsWith("</")) {
                        close(st, l, open.poll());
                    } else {
                        directive(st, l);
                    }
                }
            }
        }
        if (!open.isEmpty()) {
            throw notClosed(open.peek());
        }
    }

    /** A closing tag: it must close the innermost open section. */
    private static void close(ParseState st, ConfigLine l, Section innermost) throws ConfigException {
        checkClose(l, innermost);
        switch (innermost.name().toLowerCase(Locale.ROOT)) {
            case "location" -> closeLocation(st);
            case "requireall", "requireany", "requirenone" -> AuthzDirectives.close(st);
            case "proxy" -> st.proxySection = null;
            default -> {
                // A conditional section: nothing to undo.
            }
        }
    }

    /** That {@code l} is the closing tag of {@code innermost} (null: nothing open), without arguments. */
    private static void checkClose(ConfigLine l, Section innermost) throws ConfigException {
        String name = l.name().substring(2);
        if (innermost == null) {
            throw l.error("</" + name + "> without matching <" + name + "> section");
        }
        if (!name.equalsIgnoreCase(innermost.name())) {
            throw l.error("Expected </" + innermost.name() + "> but saw </" + name + ">");
        }
        if (!l.args().isEmpty()) {
            throw l.error("</" + name + "> takes no arguments");
        }
    }

    private static ConfigException notClosed(Section s) {
        return s.opening().error("<" + s.name() + "> was not closed.");
    }

    /**
     * Passes over the lines of {@code skipped}, a section whose test is false, as httpd does: they
     * are neither expanded nor applied, so an unknown directive there is no error, but the
     * section tags among them are read, and must nest and close.
     *
     * @return the index of the line that closes {@code skipped}
     */
    private static int skip(List<ConfigLexer.Line> lines, int from, Section skipped) throws ConfigException {
        Deque<Section> open = new ArrayDeque<>();
        open.push(skipped);
        for (int i = from; i < lines.size(); i++) {
            if (!lines.get(i).isTag()) {
                continue;
            }
            ConfigLine tag = ConfigLexer.split(lines.get(i));
            if (tag.name().startsWith("</")) {
                checkClose(tag, open.pop());
                if (open.isEmpty()) {
                    return i;
                }
            } else {
                open.push(new Section(tag));
            }
        }
        throw notClosed(open.peek());
    }

    /** {@code <Proxy balancer://name>}: the section {@code BalancerMember} and {@code ProxySet} go in. */
    private static void openProxy(ParseState st, ConfigLine l) throws ConfigException {
        if (st.location != null || st.proxySection != null) {
            throw l.error("<Proxy> cannot occur within <Location> or <Proxy> section");
        }
        if (l.args().size() != 1 || !l.args().get(0).toLowerCase(Locale.ROOT).startsWith("balancer://")) {
            throw l.error("<Proxy> takes one argument, balancer://name (this server has no forward proxy)");
        }
        String name = ProxyDirectives.balancerName(l, l.args().get(0));
        st.proxySection = name;
        ProxyDirectives.declareBalancer(st, l, name);
    }

    private static void openLocation(ParseState st, ConfigLine l) throws ConfigException {
        if (st.location != null || st.proxySection != null) {
            throw l.error("<Location> cannot occur within <" + (st.location != null ? "Location" : "Proxy")
                    + "> section");
        }
        if (l.args().size() != 1) {
            throw l.error("<Location> takes one argument, the URL-path");
        }
        String path = l.args().get(0);
        if (!path.startsWith("/") || path.contains("/../") || path.endsWith("/..") || path.contains("//")) {
            throw l.error("<Location> needs a normalized URL-path starting with /, got '" + path + "'");
        }
        st.location = new ParseState.OpenLocation(path);
    }

    private static void closeLocation(ParseState st) {
        ParseState.OpenLocation o = st.location;
        st.locations.add(new LocationSettings(o.path, o.handler, AuthzDirectives.finish(o),
                o.auth == AuthConfig.NONE ? null : o.auth));
        st.location = null;
    }

    private void directive(ParseState st, ConfigLine l) throws ConfigException {
        DirectiveTable.Directive d = table.lookup(l.name());
        if (d == null) {
            throw l.error(String.format(INVALID, l.name()));
        }
        DirectiveTable.Context ctx = st.location != null ? DirectiveTable.Context.LOCATION
                : st.proxySection != null ? DirectiveTable.Context.PROXY : DirectiveTable.Context.SERVER;
        if (!d.contexts().contains(ctx)) {
            throw l.error(d.name() + switch (ctx) {
                case LOCATION -> " cannot occur within <Location> section";
                case PROXY -> " cannot occur within <Proxy> section";
                case SERVER -> d.contexts().contains(DirectiveTable.Context.PROXY)
                        ? " is only allowed within <Proxy> sections" : " is only allowed within <Location> sections";
            });
        }
        if (ctx == DirectiveTable.Context.LOCATION && !st.location.containers.isEmpty() && !d.name().equals("Require")) {
            // As httpd, where only authorization directives may stand in an authorization container.
            throw l.error(d.name() + " cannot occur within " + st.location.containers.peek().kind.tag() + " section");
        }
        int n = l.args().size();
        if (n < d.minArgs() || n > d.maxArgs()) {
            throw l.error(d.name() + " takes " + count(d) + ": " + d.name() + " " + d.syntax());
        }
        try {
            d.action().apply(st, l);
        } catch (InvalidPathException e) {
            // A path argument that cannot be one (a NUL character; found by ConfigFuzzTest).
            throw l.error(d.name() + ": '" + e.getInput() + "' is not a valid path (" + e.getReason() + ")");
        }
    }

    private static String count(DirectiveTable.Directive d) {
        if (d.minArgs() == d.maxArgs()) {
            return d.minArgs() == 1 ? "one argument" : d.minArgs() + " arguments";
        }
        return d.maxArgs() == Integer.MAX_VALUE ? "at least " + d.minArgs() + " argument(s)"
                : d.minArgs() + " to " + d.maxArgs() + " arguments";
    }

    /** {@code Include path-or-glob}: wildcards in the last component, files read in name order. */
    private void include(ParseState st, ConfigLine l, boolean optional, int depth) throws ConfigException {
        if (l.args().size() != 1) {
            throw l.error(l.name() + " takes one argument: a file, directory or wildcard pattern");
        }
        if (st.location != null) {
            throw l.error(l.name() + " cannot occur within <Location> section");
        }
        if (depth >= MAX_INCLUDE_DEPTH) {
            throw l.error("Exceeded the maximum include directory nesting level of " + MAX_INCLUDE_DEPTH
                    + ". You have probably a recursion somewhere.");
        }
        Path pattern;
        try {
            pattern = st.resolve(l.args().get(0));
        } catch (InvalidPathException e) {
            throw l.error(l.name() + ": '" + e.getInput() + "' is not a valid path (" + e.getReason() + ")");
        }
        List<Path> files = expand(l, pattern, optional);
        for (Path f : files) {
            String source = f.toString();
            apply(st, ConfigLexer.lines(source, read(f, l.source(), l.line())), depth + 1);
        }
    }

    private static List<Path> expand(ConfigLine l, Path pattern, boolean optional) throws ConfigException {
        String last = pattern.getFileName() == null ? "" : pattern.getFileName().toString();
        boolean glob = last.indexOf('*') >= 0 || last.indexOf('?') >= 0 || last.indexOf('[') >= 0;
        Path dir = pattern.getParent();
        if (!glob) {
            if (Files.isDirectory(pattern)) {
                return listDir(l, pattern, "*", true, optional);
            }
            if (!Files.isRegularFile(pattern)) {
                if (optional) {
                    return List.of();
                }
                throw l.error("Could not open configuration file " + pattern + ": No such file or directory");
            }
            return List.of(pattern);
        }
        if (dir == null || !Files.isDirectory(dir)) {
            if (optional) {
                return List.of();
            }
            throw l.error("Could not open configuration directory " + dir + ": No such file or directory");
        }
        // httpd matches with APR_FNM_PERIOD: only a pattern starting with a dot takes hidden files.
        List<Path> files = listDir(l, dir, last, last.startsWith("."), optional);
        if (files.isEmpty() && !optional) {
            throw l.error("No matches for the wildcard '" + last + "' in '" + dir + "', failing");
        }
        return files;
    }

    private static List<Path> listDir(ConfigLine l, Path dir, String glob, boolean hidden, boolean optional)
            throws ConfigException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path p : ds) {
                if (Files.isRegularFile(p) && (hidden || !p.getFileName().toString().startsWith("."))) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            if (optional) {
                return List.of();
            }
            throw l.error("Could not read configuration directory " + dir + ": " + e.getMessage());
        }
        out.sort(null);
        return out;
    }
}
