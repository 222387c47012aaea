package org.loommpm.cli.alias;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.loommpm.cli.location.LocationPath;

/**
 * One {@code Alias} or {@code AliasMatch} line: the paths it takes and the file each one is
 * served from, under its {@link #root}, where the file server's symlink checks are anchored.
 *
 * <ul>
 *   <li>{@code Alias URL-path target} takes the path and everything below it by whole segments
 *       (as {@code <Location>}; a URL-path ending in {@code /} needs that slash in the request),
 *       and the rest of the path names a file under the target, joined on a segment boundary
 *       (httpd joins the strings: {@code Alias /icons/ /srv/icons} maps {@code /icons/a} to
 *       {@code /srv/iconsa}). The root is the target's real path;
 *   <li>{@code AliasMatch regex target} searches the path and substitutes {@code $0}..{@code $9}
 *       into the target. The root is the directory the target's written part names (up to the
 *       last {@code /} before the first group), or the target itself when it has no group; a
 *       substitution that leads out of it ({@code ..} from a group) is refused.
 * </ul>
 * Immutable: any thread.
 */
public final class Alias {
    /** The URL-path of {@code Alias}; null for {@code AliasMatch}. */
    private final String prefix;
    private final Pattern regex;
    /** {@code AliasMatch}: the target after the root, with its groups; null when it has none. */
    private final String template;
    private final Path root;
    private final String where;

    private Alias(String prefix, Pattern regex, String template, Path root, String where) {
        this.prefix = prefix;
        this.regex = regex;
        this.template = template;
        this.root = root;
        this.where = where;
    }

    /**
     * {@code Alias URL-path target}.
     *
     * @param urlPath a normalized path starting with {@code /}
     * @param target the target, absolute (a directory or a file)
     * @param where the line, for the error log
     * @throws IllegalArgumentException when the target does not exist
     */
    public static Alias prefix(String urlPath, Path target, String where) {
        return new Alias(urlPath, null, null, realPath(target, false), where);
    }

    /**
     * {@code AliasMatch regex target}: the target's written part up to its last {@code /}
     * before the first group is the root, which must be an existing directory; without a group
     * the target itself is, which must exist.
     *
     * @param target the target, absolute, with its groups
     * @throws IllegalArgumentException for an invalid regex, a reference to a missing group or a
     *     root that does not exist
     */
    public static Alias match(String regex, String target, String where) {
        Pattern p = Regex.compile(regex);
        int ref = Regex.firstReference(target);
        if (ref < 0) {
            return new Alias(null, p, null, realPath(Path.of(Regex.substitute(target, null, false)), false), where);
        }
        Regex.checkReferences(target, p);
        int slash = target.lastIndexOf('/', ref);
        Path root = realPath(Path.of(Regex.substitute(target.substring(0, Math.max(slash, 1)), null, false)), true);
        return new Alias(null, p, target.substring(slash + 1), root, where);
    }

    /** The real path of a target: symlink checks compare real paths, as for DocumentRoot. */
    private static Path realPath(Path p, boolean directory) {
        Path real;
        try {
            real = p.toRealPath();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("'" + p + "' does not exist");
        }
        if (directory && !java.nio.file.Files.isDirectory(real)) {
            throw new IllegalArgumentException("'" + p + "' (the target's directory before its first $n) is not a "
                    + "directory");
        }
        return real;
    }

    /** {@return the real path symlink checks are anchored at} */
    public Path root() {
        return root;
    }

    /** {@return the URL-path of {@code Alias}, null for {@code AliasMatch}} */
    public String urlPath() {
        return prefix;
    }

    /** {@return the expression of {@code AliasMatch}, else null} */
    public Pattern regex() {
        return regex;
    }

    /** {@return the line it was read from} */
    public String where() {
        return where;
    }

    /** Whether it takes {@code urlPath} and all below it, so that an alias for that path never applies. */
    boolean covers(String urlPath) {
        return prefix != null && LocationPath.matches(prefix, urlPath);
    }

    /**
     * The file a request path is served from.
     *
     * @param path the request's normalized path
     * @return the file (under {@link #root}, or the root itself), or null when this alias does
     *     not take the path
     * @throws Refused (403) when an {@code AliasMatch} substitution leads out of the root
     */
    public Path file(String path) throws Refused {
        String rest;
        if (prefix != null) {
            if (!LocationPath.matches(prefix, path)) {
                return null;
            }
            rest = path.substring(prefix.length());
        } else {
            Matcher m = Regex.find(regex, path, where);
            if (m == null) {
                return null;
            }
            if (template == null) {
                return root;
            }
            rest = Regex.substitute(template, m, false);
        }
        int from = 0;
        while (from < rest.length() && rest.charAt(from) == '/') {
            from++;
        }
        if (from == rest.length()) {
            return root;
        }
        Path file = root.resolve(rest.substring(from));
        if (prefix == null) {
            // A normalized path has no ".." segment, but a group can hold ".." cut from a longer name.
            file = file.normalize();
            if (!file.startsWith(root)) {
                throw new Refused(403, "AliasMatch of " + where + " would map " + path + " outside " + root);
            }
        }
        return file;
    }
}
