package org.loommpm.cli.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.loommpm.staticfiles.internal.StaticFileSettings;

/**
 * What the CLI serves, beyond the engine's settings: documents, types, options, locations.
 *
 * @param serverName {@code ServerName} (used in redirects and URLs), or null
 * @param documentRoot {@code DocumentRoot}, a real directory, or null for none
 * @param directoryIndex {@code DirectoryIndex} file names, tried in order
 * @param indexes {@code Options Indexes}: list directories that have no index file
 * @param followSymLinks {@code Options FollowSymLinks}: serve symlinks leading out of DocumentRoot
 * @param enableSendfile {@code EnableSendfile}: send file bodies with {@code transferTo}
 * @param fileCacheValid {@code FileCacheValid}: how long a small file's lookup (symlink checks,
 *     attributes, bytes, validators) is served without looking at the disk again; zero for never
 * @param types extension (lowercase, no dot) to media type, from {@code TypesConfig} then
 *     {@code AddType}; consulted before the built-in table
 * @param welcomePage whether {@code /} falls back to the built-in welcome page (the embedded default)
 * @param locations the {@code <Location>} sections, in file order
 * @param allowEncodedSlashes {@code AllowEncodedSlashes On}: a {@code %2F} in the target is a
 *     {@code /} of the path (decoded once, for every rule and for the proxy alike) instead of a 404
 */
public record SiteSettings(String serverName, Path documentRoot, List<String> directoryIndex, boolean indexes,
                           boolean followSymLinks, boolean enableSendfile, Duration fileCacheValid,
                           Map<String, String> types, boolean welcomePage, List<LocationSettings> locations,
                           boolean allowEncodedSlashes)
        implements StaticFileSettings {
    /**
     * {@code FileCacheValid}'s default: a changed, added, removed or re-linked file is seen within
     * a second, as with lighttpd's stat cache, while a busy file costs one look at the disk per
     * second instead of several system calls per request.
     */
    public static final Duration DEFAULT_FILE_CACHE_VALID = Duration.ofSeconds(1);
}
