package org.loommpm.staticfiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.staticfiles.internal.StaticFileHandler;
import org.loommpm.staticfiles.internal.StaticFileSettings;
import org.loommpm.staticfiles.internal.UrlPath;

/**
 * A handler serving the files of one directory, as {@code loom-mpm.jar} serves its DocumentRoot:
 *
 * <pre>{@code
 * router.get("/assets/*", StaticFiles.from(Path.of("web/assets")));
 * router.get("/*", StaticFiles.builder(Path.of("web")).directoryListing(true)
 *         .cacheControl("max-age=300").build());
 * }</pre>
 *
 * <p><b>Which file.</b> Mounted under a route ending in the anonymous rest wildcard
 * ({@code /assets/*}), it serves what the wildcard matched ({@code request.pathParam("*")}):
 * {@code /assets/css/site.css} is {@code css/site.css} of the directory. Otherwise (the whole
 * server's handler, a route without {@code *}) it serves the request's whole path. A
 * {@code {name...}} wildcard is not read: use {@code *}. A route {@code /assets/*} does not match
 * {@code /assets} itself; add a redirect route for it if it should.
 *
 * <p><b>What it answers</b> ({@code GET} and {@code HEAD}; others get 405, which a router
 * answers before): the file with its media type (by extension: {@link Builder#mimeType}, then a
 * built-in table of the common web types, else {@code application/octet-stream}),
 * {@code ETag} (size and modification time), {@code Last-Modified}, {@code Accept-Ranges};
 * 304 and 412 for conditional requests (RFC 9110 §13); 206 for a byte range, several as
 * {@code multipart/byteranges}, 416 when none is satisfiable; the {@code .br} or {@code .gz}
 * sibling of a file, with {@code Content-Encoding} and {@code Vary: Accept-Encoding}, when the
 * client accepts it ({@link Builder#precompressed}); for a directory, a 301 to the path with a
 * trailing slash, then its first index file, else a listing ({@link Builder#directoryListing})
 * or 403; 404 for what is not there.
 *
 * <p><b>Staying inside the directory.</b> The server has already resolved {@code .} and
 * {@code ..} segments (a {@code ..} above the root is 400 before any handler). An encoded slash
 * or backslash ({@code %2F}, {@code %5C}) in the target is refused with 404, a backslash or
 * control character with 400 (DEBUG line LM1101). A symlink whose real location is outside the
 * directory is refused with 403 and is left out of listings (LM1102), unless
 * {@link Builder#followSymlinks(boolean)}.
 *
 * <p><b>Small files</b> (up to 32 KiB, with their siblings) are kept in memory with their
 * validators for {@link Builder#fileCacheValid(Duration)} (1 s by default) after a lookup and
 * served without a system call meanwhile; a changed file is seen after that window. Larger
 * files are looked up on every request and sent with {@code FileChannel.transferTo}.
 *
 * <p>Blocking (file I/O): it runs on a virtual thread like any handler. Thread-safe: one
 * instance may serve any number of routes and requests.
 */
public final class StaticFiles implements Handler {
    private static final System.Logger LOG = System.getLogger("org.loommpm.staticfiles");

    private final StaticFileHandler files;

    private StaticFiles(Settings settings) {
        this.files = new StaticFileHandler(settings, null);
    }

    /**
     * A handler serving {@code dir} with the defaults: index file {@code index.html}, no
     * listings, precompressed siblings, symlinks kept inside, a 1 s file cache.
     *
     * @param dir the directory
     * @return the handler
     * @throws IllegalArgumentException if {@code dir} is not a directory
     * @throws UncheckedIOException if its real path cannot be read
     */
    public static StaticFiles from(Path dir) {
        return builder(dir).build();
    }

    /**
     * A builder for a handler serving {@code dir} with other options.
     *
     * @param dir the directory (checked by {@link Builder#build()})
     * @return the builder, with the defaults of {@link #from(Path)}
     */
    public static Builder builder(Path dir) {
        return new Builder(Objects.requireNonNull(dir, "dir"));
    }

    /**
     * Serves the file the request names; see the class comment.
     *
     * @param request the request
     * @param response the response
     * @throws Exception if the file cannot be read or the connection fails
     */
    @Override
    public void handle(Request request, Response response) throws Exception {
        String rest = request.pathParam("*");
        String path = request.path();
        String mount = "";
        String urlPath;
        try {
            if (rest != null && path.endsWith(rest) && path.length() > rest.length()
                    && path.charAt(path.length() - rest.length() - 1) == '/') {
                mount = path.substring(0, path.length() - rest.length() - 1);
                urlPath = UrlPath.normalize(request, false, "/" + rest);
            } else {
                urlPath = UrlPath.normalize(request, false);
            }
        } catch (UrlPath.Rejected e) {
            LOG.log(Level.DEBUG, "LM1101 {0} refused with {1}: {2}", request.rawTarget(), e.status(), e.getMessage());
            response.status(e.status()).header("Content-Type", "text/plain; charset=UTF-8");
            response.send((e.status() == 404 ? "Not Found\n" : "Bad Request\n").getBytes(StandardCharsets.UTF_8));
            return;
        }
        files.serveMounted(request, response, mount, urlPath);
    }

    /** What the builder collected, in the form the implementation reads. */
    private record Settings(Path documentRoot, List<String> directoryIndex, boolean indexes, boolean followSymLinks,
                            boolean enableSendfile, Duration fileCacheValid, Map<String, String> types,
                            boolean precompressed, String cacheControl) implements StaticFileSettings {
    }

    /** The options of a {@link StaticFiles} handler. Not thread-safe; {@link #build()} copies it. */
    public static final class Builder {
        private final Path dir;
        private List<String> indexFiles = List.of("index.html");
        private boolean listing;
        private boolean precompressed = true;
        private boolean followSymlinks;
        private boolean sendfile = true;
        private Duration cacheValid = Duration.ofSeconds(1);
        private final Map<String, String> types = new LinkedHashMap<>();
        private String cacheControl;

        private Builder(Path dir) {
            this.dir = dir;
        }

        /**
         * The files a directory's request is answered with, the first one present winning
         * (httpd's {@code DirectoryIndex}); {@code index.html} by default, none when empty.
         *
         * @param names file names, without a {@code /}
         * @return this builder
         * @throws IllegalArgumentException for a name with a {@code /} or {@code \}, or empty, {@code .} or {@code ..}
         */
        public Builder indexFiles(String... names) {
            List<String> out = new ArrayList<>(names.length);
            for (String n : names) {
                if (n.isEmpty() || n.equals(".") || n.equals("..") || n.indexOf('/') >= 0 || n.indexOf('\\') >= 0) {
                    throw new IllegalArgumentException("not a file name: '" + n + "'");
                }
                out.add(n);
            }
            this.indexFiles = List.copyOf(out);
            return this;
        }

        /**
         * Whether a directory without an index file is answered with a listing of its entries
         * (an HTML page; names escaped) rather than 403 (httpd's {@code Options Indexes}). Off by
         * default.
         *
         * @param on whether to list directories
         * @return this builder
         */
        public Builder directoryListing(boolean on) {
            this.listing = on;
            return this;
        }

        /**
         * Whether a file's {@code NAME.br} or {@code NAME.gz} sibling is sent instead of it to a
         * client whose {@code Accept-Encoding} accepts brotli or gzip (brotli first), with
         * {@code Content-Encoding}, the file's media type, an {@code ETag} of its own and
         * {@code Vary: Accept-Encoding}. On by default; the siblings are made at build time
         * ({@code gzip -k}, {@code brotli -k}), nothing is compressed on the fly.
         *
         * @param on whether to look for precompressed siblings
         * @return this builder
         */
        public Builder precompressed(boolean on) {
            this.precompressed = on;
            return this;
        }

        /**
         * Whether symlinks may lead out of the directory (httpd's {@code Options FollowSymLinks}).
         * Off by default: a path whose real location is outside the directory's real path is
         * refused with 403. These checks are made before the file is opened: they keep a
         * careless link out, they are no barrier against a local user racing them.
         *
         * @param on whether to follow symlinks anywhere
         * @return this builder
         */
        public Builder followSymlinks(boolean on) {
            this.followSymlinks = on;
            return this;
        }

        /**
         * How long a lookup is trusted (the jar's {@code FileCacheValid}): a file of up to 32 KiB
         * is served from memory, bytes and validators together, for this long after it was
         * looked up, and directories' symlink verdicts are kept as long. 1 s by default;
         * {@link Duration#ZERO} looks at the disk on every request.
         *
         * @param valid zero or more
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder fileCacheValid(Duration valid) {
            if (valid.isNegative()) {
                throw new IllegalArgumentException("negative: " + valid);
            }
            this.cacheValid = valid;
            return this;
        }

        /**
         * Whether bodies over 32 KiB are sent with {@code FileChannel.transferTo} (zero-copy,
         * where the connection allows it; the jar's {@code EnableSendfile}) rather than copied
         * through the response stream. On by default.
         *
         * @param on whether to use {@code transferTo}
         * @return this builder
         */
        public Builder sendfile(boolean on) {
            this.sendfile = on;
            return this;
        }

        /**
         * The media type of files with an extension, before the built-in table (which has the
         * common web types, without a charset: {@code text/html}, {@code text/css},
         * {@code text/javascript}, {@code application/json}, images, fonts, {@code wasm}, ...).
         *
         * @param extension the extension without its dot, e.g. {@code md}; case-insensitive
         * @param mediaType the type, e.g. {@code text/markdown; charset=UTF-8}
         * @return this builder
         * @throws IllegalArgumentException for an empty extension or one with a dot or slash, or a
         *     type without {@code /} or with a line break
         */
        public Builder mimeType(String extension, String mediaType) {
            if (extension.isEmpty() || extension.indexOf('.') >= 0 || extension.indexOf('/') >= 0) {
                throw new IllegalArgumentException("an extension is given without its dot: '" + extension + "'");
            }
            if (mediaType.indexOf('/') <= 0 || mediaType.indexOf('\r') >= 0 || mediaType.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("not a media type: '" + mediaType + "'");
            }
            types.put(extension.toLowerCase(Locale.ROOT), mediaType.strip());
            return this;
        }

        /**
         * A {@code Cache-Control} value for the answers carrying a file (200, 206, 304), e.g.
         * {@code max-age=31536000, immutable} for fingerprinted assets, or {@code no-cache} to
         * have caches revalidate (by {@code ETag}) every time. None by default: caches then
         * guess a freshness from {@code Last-Modified}. Errors and redirects never get it.
         *
         * @param value the field value, or null for none
         * @return this builder
         * @throws IllegalArgumentException for a value with a line break
         */
        public Builder cacheControl(String value) {
            if (value != null && (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0)) {
                throw new IllegalArgumentException("a line break in Cache-Control");
            }
            this.cacheControl = value;
            return this;
        }

        /**
         * {@return the handler}
         *
         * @throws IllegalArgumentException if the directory is not one
         * @throws UncheckedIOException if its real path cannot be read
         */
        public StaticFiles build() {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("not a directory: " + dir);
            }
            Path root;
            try {
                root = dir.toRealPath(); // the symlink checks compare real paths
            } catch (IOException e) {
                throw new UncheckedIOException("cannot resolve " + dir, e);
            }
            return new StaticFiles(new Settings(root, indexFiles, listing, followSymlinks, sendfile, cacheValid,
                    Map.copyOf(types), precompressed, cacheControl));
        }
    }
}
