package org.loommpm.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.loommpm.cli.access.AccessRule;

/**
 * Reads a configuration: {@code -C} lines, then the file (or the embedded default), then
 * {@code -c} lines, through one {@link DirectiveTable}. Handles what the table cannot:
 * {@code Include}/{@code IncludeOptional} with globs, and {@code <Location>} sections.
 */
public final class ConfigParser {
    private static final int MAX_INCLUDE_DEPTH = 16;
    private static final String INVALID = "Invalid command '%s', perhaps misspelled or defined by a module "
            + "not included in the server configuration";

    private final DirectiveTable table;

    /** @param table the directives to accept */
    public ConfigParser(DirectiveTable table) {
        this.table = table;
    }

    /**
     * What to read.
     *
     * @param file the main file, or null for the embedded default
     * @param embedded the embedded default's text, used when {@code file} is null
     * @param before {@code -C} directives, applied first
     * @param after {@code -c} directives, applied last
     */
    public record Source(Path file, String embedded, List<String> before, List<String> after) {
    }

    /**
     * Parses and validates everything.
     *
     * @throws ConfigException the first error, located
     */
    public LoomConfig parse(Source src) throws ConfigException {
        Path root = src.file() != null ? src.file().toAbsolutePath().getParent() : Path.of("");
        ParseState st = new ParseState(root);
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
            apply(st, ConfigLexer.lex(f.toString(), read(f, "-f option", 0)), 0);
            description = f.toString();
        } else {
            apply(st, ConfigLexer.lex("embedded default", src.embedded()), 0);
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

    private static List<ConfigLine> lexAll(String source, List<String> lines) throws ConfigException {
        List<ConfigLine> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            ConfigLine l = ConfigLexer.parse(source, i + 1, lines.get(i).strip());
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

    private void apply(ParseState st, List<ConfigLine> lines, int depth) throws ConfigException {
        ParseState.OpenLocation openedHere = null;
        for (ConfigLine l : lines) {
            String name = l.name().toLowerCase(Locale.ROOT);
            switch (name) {
                case "<location" -> {
                    openLocation(st, l);
                    openedHere = st.location;
                }
                case "</location" -> {
                    if (st.location == null || st.location != openedHere) {
                        throw l.error("</Location> without matching <Location> section");
                    }
                    if (!l.args().isEmpty()) {
                        throw l.error("</Location> takes no arguments");
                    }
                    closeLocation(st);
                    openedHere = null;
                }
                case "<proxy" -> openProxy(st, l);
                case "</proxy" -> {
                    if (st.proxySection == null) {
                        throw l.error("</Proxy> without matching <Proxy> section");
                    }
                    st.proxySection = null;
                }
                case "include", "includeoptional" -> include(st, l, name.equals("includeoptional"), depth);
                default -> directive(st, l);
            }
        }
        if (openedHere != null) {
            throw openedHere.opening.error("<Location> was not closed.");
        }
        if (depth == 0 && st.proxySection != null) {
            throw st.proxyOpening.error("<Proxy> was not closed.");
        }
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
        st.proxyOpening = l;
        ProxyDirectives.declareBalancer(st, l, name);
    }

    private static void openLocation(ParseState st, ConfigLine l) throws ConfigException {
        if (st.location != null) {
            throw l.error("<Location> cannot occur within <Location> section");
        }
        if (l.args().size() != 1) {
            throw l.error("<Location> takes one argument, the URL-path");
        }
        String path = l.args().get(0);
        if (!path.startsWith("/") || path.contains("/../") || path.endsWith("/..") || path.contains("//")) {
            throw l.error("<Location> needs a normalized URL-path starting with /, got '" + path + "'");
        }
        st.location = new ParseState.OpenLocation(l, path);
    }

    private static void closeLocation(ParseState st) {
        ParseState.OpenLocation o = st.location;
        AccessRule rule = o.anyRequire ? new AccessRule(o.requireAll, List.copyOf(o.ranges)) : null;
        st.locations.add(new LocationSettings(o.path, o.handler, rule));
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
            apply(st, ConfigLexer.lex(source, read(f, l.source(), l.line())), depth + 1);
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
