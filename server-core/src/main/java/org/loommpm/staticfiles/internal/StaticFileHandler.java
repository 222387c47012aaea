package org.loommpm.staticfiles.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.HttpDate;
import org.loommpm.negotiation.QualityList;

/**
 * Serves files under DocumentRoot (the jar's) or a {@code staticfiles.StaticFiles} directory
 * (embedded) for GET and HEAD: media types, {@code ETag} and
 * {@code Last-Modified} with conditional requests, byte ranges (one range, or several as
 * {@code multipart/byteranges}), {@code DirectoryIndex}, listings with {@code Options Indexes},
 * and precompressed {@code .br}/{@code .gz} siblings.
 *
 * <p><b>Staying inside DocumentRoot.</b> The path arrives normalized by {@link UrlPath} (plain
 * names only), so resolving it under the root cannot climb out; what can is a symlink. Unless
 * {@code FollowSymLinks} is on, {@link RootGuard} refuses (403) a path whose real location is
 * outside the root's real path. An {@code Alias} serves its target as a {@link Tree} of its own,
 * the same way: the guard is anchored at the target's real path, not at DocumentRoot.
 *
 * <p><b>Small files.</b> A URL path that resolves to a file of up to {@value #SMALL} bytes (and
 * siblings as small) is kept in a {@link FileCache} with the files' bytes and formatted
 * validators, and served from it without a system call for {@code FileCacheValid} after the
 * lookup; then the next request looks again (symlink checks, attributes, index files,
 * siblings), rereading the bytes only if the file changed. Such a file goes out with its head
 * in one write. A response from the cache always carries the bytes its validators describe.
 *
 * <p><b>Larger files</b> are looked up on every request and sent through {@code transferTo}
 * ({@code EnableSendfile On}) or copied through the response stream.
 */
public final class StaticFileHandler {
    /** Largest body held in memory and written with the head in one system call. */
    static final int SMALL = 32 * 1024;
    /** The most URL paths the file cache holds. */
    static final int CACHE_ENTRIES = 4096;
    /** The most file bytes the file cache holds. */
    static final long CACHE_BYTES = 32L << 20;
    private static final String ALLOW = "GET, HEAD, OPTIONS";
    private static final AtomicLong BOUNDARIES = new AtomicLong(System.nanoTime());

    private final StaticFileSettings site;
    /** DocumentRoot's, or null without one. */
    private final Tree documents;
    private final MimeTypes types;
    /** The jar's {@code ErrorDocument}, or null: set once before the server starts. */
    private ErrorAnswer errorAnswer;
    private final Handler welcome;
    /** How long a lookup is trusted, in nanoseconds. */
    private final long ttlNanos;
    /** Null when {@code FileCacheValid 0}. */
    private final FileCache cache;
    /** Whether {@code .br}/{@code .gz} siblings are looked for. */
    private final boolean precompressed;
    /** The {@code Cache-Control} of a file's answer (200, 206, 304), or null for none. */
    private final String cacheControl;

    /**
     * @param site DocumentRoot (may be null: then only the welcome page), options, index files
     * @param welcome what {@code /} shows when DocumentRoot has no index for it, or null
     */
    public StaticFileHandler(StaticFileSettings site, Handler welcome) {
        this.site = site;
        this.types = new MimeTypes(site.types());
        this.welcome = welcome;
        this.ttlNanos = site.fileCacheValid().toNanos();
        this.documents = site.documentRoot() != null ? tree(site.documentRoot()) : null;
        this.cache = ttlNanos > 0 ? new FileCache(CACHE_ENTRIES, CACHE_BYTES) : null;
        this.precompressed = site.precompressed();
        this.cacheControl = site.cacheControl();
    }

    /**
     * Where files are served from: DocumentRoot, or an {@code Alias} target (a directory, or a
     * single file), with a {@link RootGuard} anchored at its real path that keeps symlinks from
     * leading out of it (unless {@code FollowSymLinks}).
     */
    public static final class Tree {
        private final Path root;
        private final RootGuard guard;

        private Tree(Path root, RootGuard guard) {
            this.root = root;
            this.guard = guard;
        }
    }

    /**
     * A tree rooted at {@code root}, with this site's {@code FollowSymLinks} and
     * {@code FileCacheValid}.
     *
     * @param root a real path (symlink checks compare real paths)
     */
    public Tree tree(Path root) {
        return new Tree(root, new RootGuard(root, site.followSymLinks(), ttlNanos));
    }

    /**
     * Answers a request for {@code urlPath}, a path normalized by {@link UrlPath}, from DocumentRoot.
     */
    public void serve(Request req, Response res, String urlPath) throws Exception {
        serve(req, res, "", urlPath, documents, null);
    }

    /**
     * Answers a request for {@code urlPath} under DocumentRoot, where the handler is mounted at
     * {@code mount}: the request's path is {@code mount + urlPath} (a router's {@code /assets/*}
     * route: mount {@code /assets}), which the trailing-slash redirect of a directory names.
     *
     * @param mount the request path's part before {@code urlPath}, empty or without a trailing slash
     * @param urlPath the rest of the path, normalized by {@link UrlPath}
     */
    public void serveMounted(Request req, Response res, String mount, String urlPath) throws Exception {
        serve(req, res, mount, urlPath, documents, null);
    }

    /**
     * Answers a request for {@code urlPath}, a path normalized by {@link UrlPath}, with
     * {@code file} of {@code tree}. The file cache is keyed by the URL path: each URL path must
     * always map to the same file (DocumentRoot's, or one alias's).
     *
     * @param tree the tree {@code file} lies in, or null: 404 (or the welcome page)
     * @param file the tree's root or a path below it; null for {@code urlPath} under the root, as
     *     DocumentRoot maps it (resolved only when the file cache does not answer)
     */
    public void serve(Request req, Response res, String urlPath, Tree tree, Path file) throws Exception {
        serve(req, res, "", urlPath, tree, file);
    }

    private void serve(Request req, Response res, String mount, String urlPath, Tree tree, Path file)
            throws Exception {
        String method = req.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            res.header("Allow", ALLOW);
            if (method.equals("OPTIONS")) {
                res.status(204).send(new byte[0]);
            } else {
                error(req, res, 405, "Method Not Allowed");
            }
            return;
        }
        if (tree == null) {
            notFoundOrWelcome(req, res, urlPath);
            return;
        }
        long now = System.nanoTime(); // before any check: an entry's window starts no later
        FileCache.Entry cached = cache != null ? cache.get(urlPath) : null;
        if (cached != null && cached.fresh(now)) {
            String accept = acceptEncoding(req);
            send(req, res, cached.choose(accept), accept != null);
            return;
        }
        Lookup lookup = new Lookup(mount, urlPath, now, cached, tree);
        BasicFileAttributes attrs;
        try {
            if (file == null) {
                file = urlPath.length() == 1 ? tree.root : tree.root.resolve(urlPath.substring(1));
            }
            attrs = tree.guard.attributes(file);
        } catch (NoSuchFileException | NotDirectoryException | InvalidPathException e) {
            lookup.forget();
            notFoundOrWelcome(req, res, urlPath);
            return;
        } catch (AccessDeniedException e) {
            lookup.forget();
            error(req, res, 403, "Forbidden");
            return;
        } catch (FileSystemException e) {
            // A name too long for the file system, a symlink loop ...: the client's path, not a
            // server fault; 403, as httpd's directory walk answers any other stat failure.
            lookup.forget();
            error(req, res, 403, "Forbidden");
            return;
        }
        if (attrs == null) {
            lookup.forget();
            error(req, res, 403, "Forbidden");
        } else if (attrs.isDirectory()) {
            directory(req, res, lookup, file);
        } else if (attrs.isRegularFile() && urlPath.endsWith("/")) {
            // Path drops a trailing slash, but a file is no directory: 404 as with httpd (and
            // stat(2)), rather than the file under a second URL that relative links misread.
            lookup.forget();
            error(req, res, 404, "Not Found");
        } else if (attrs.isRegularFile()) {
            file(req, res, lookup, file, attrs);
        } else {
            lookup.forget();
            error(req, res, 403, "Forbidden");
        }
    }

    /** A URL path being resolved on disk: when the lookup began, what the cache held, the tree it is in. */
    private final class Lookup {
        /** Where the handler is mounted: what precedes {@link #urlPath} in the request's path. */
        final String mount;
        final String urlPath;
        final long started;
        final FileCache.Entry stale;
        final Tree tree;

        Lookup(String mount, String urlPath, long started, FileCache.Entry stale, Tree tree) {
            this.mount = mount;
            this.urlPath = urlPath;
            this.started = started;
            this.stale = stale;
            this.tree = tree;
        }

        /** The path no longer resolves to a small file: drop what the cache still holds for it. */
        void forget() {
            if (stale != null) {
                cache.remove(urlPath);
            }
        }
    }

    private void notFoundOrWelcome(Request req, Response res, String urlPath) throws Exception {
        if (welcome != null && urlPath.equals("/")) {
            welcome.handle(req, res);
        } else {
            error(req, res, 404, "Not Found");
        }
    }

    private void directory(Request req, Response res, Lookup lookup, Path dir) throws Exception {
        String urlPath = lookup.urlPath;
        if (!urlPath.endsWith("/")) {
            lookup.forget();
            // mod_dir's trailing-slash redirect, so relative links inside the index resolve.
            String q = req.query();
            res.header("Location", DirectoryListing.encode(lookup.mount + urlPath) + "/" + (q != null ? "?" + q : ""));
            plain(res, 301, "Moved Permanently");
            return;
        }
        for (String name : site.directoryIndex()) {
            Path index = dir.resolve(name);
            BasicFileAttributes a;
            try {
                a = lookup.tree.guard.attributes(index);
            } catch (IOException e) {
                continue;
            }
            if (a != null && a.isRegularFile()) {
                file(req, res, lookup, index, a);
                return;
            }
        }
        lookup.forget();
        if (site.indexes()) {
            res.header("Content-Type", "text/html; charset=UTF-8");
            res.send(DirectoryListing.render(lookup.mount + urlPath, dir, lookup.tree.guard));
        } else if (welcome != null && lookup.tree == documents && urlPath.equals("/")) {
            welcome.handle(req, res);
        } else {
            error(req, res, 403, "Forbidden");
        }
    }

    private void file(Request req, Response res, Lookup lookup, Path file, BasicFileAttributes attrs)
            throws IOException {
        String type = types.forName(file.getFileName().toString());
        String accept = acceptEncoding(req);
        Tree tree = lookup.tree;
        if (cache != null && attrs.size() <= SMALL) {
            // Resolved afresh, so that every check a cache entry rests on is no older than it
            // (an alias of one file is its own root: no directory of it to check).
            if (!file.equals(tree.root) && !tree.guard.directoryInsideNow(file.getParent(), lookup.started)) {
                lookup.forget();
                error(req, res, 403, "Forbidden");
                return;
            }
            FileCache.Entry entry = remember(lookup, file, attrs, type);
            if (entry != null) {
                send(req, res, entry.choose(accept), accept != null);
                return;
            }
        }
        lookup.forget();
        Representation chosen = null;
        if (accept != null) {
            QualityList accepted = QualityList.parse(accept);
            for (String enc : new String[] {"br", "gzip"}) {
                if (accepted.quality(enc) > 0) {
                    chosen = sibling(tree, file, type, enc);
                    if (chosen != null) {
                        break;
                    }
                }
            }
        }
        send(req, res, chosen != null ? chosen : Representation.of(file, attrs, type, null), accept != null);
    }

    /**
     * The {@code .br} or {@code .gz} sibling of {@code file} if there is one it may serve, else
     * null; none for an alias of one file, whose siblings are outside it.
     */
    private Representation sibling(Tree tree, Path file, String type, String encoding) {
        if (file.equals(tree.root) || !precompressed) {
            return null;
        }
        Path sibling = file.resolveSibling(file.getFileName() + (encoding.equals("br") ? ".br" : ".gz"));
        try {
            BasicFileAttributes a = tree.guard.attributes(sibling);
            return a != null && a.isRegularFile() ? Representation.of(sibling, a, type, encoding) : null;
        } catch (IOException e) {
            return null; // no such variant
        }
    }

    /**
     * Caches what the lookup found, a small file whose directory was just checked, when its
     * siblings are small too, with their bytes (reused from the stale entry when a file is
     * unchanged); returns the entry, or null when it is not cacheable. Every check the entry
     * rests on was made after {@code lookup.started}, where its window starts.
     */
    private FileCache.Entry remember(Lookup lookup, Path file, BasicFileAttributes attrs, String type)
            throws IOException {
        FileCache.Entry stale = lookup.stale;
        Representation plain = load(Representation.of(file, attrs, type, null), stale != null ? stale.plain() : null);
        Representation br = sibling(lookup.tree, file, type, "br");
        Representation gzip = sibling(lookup.tree, file, type, "gzip");
        if (plain == null || br != null && (br = load(br, stale != null ? stale.br() : null)) == null
                || gzip != null && (gzip = load(gzip, stale != null ? stale.gzip() : null)) == null) {
            return null;
        }
        FileCache.Entry e = new FileCache.Entry(lookup.started + ttlNanos, plain, br, gzip);
        cache.put(lookup.urlPath, e);
        return e;
    }

    /**
     * {@code r} with its bytes: the old ones when the file is the same, else read now; null when
     * it is too large or changed size while being read (then it is not cached).
     */
    private static Representation load(Representation r, Representation old) throws IOException {
        if (r.size() > SMALL) {
            return null;
        }
        if (r.sameFile(old)) {
            return r.withBytes(old.bytes());
        }
        byte[] content = Files.readAllBytes(r.file());
        return content.length == r.size() ? r.withBytes(content) : null;
    }

    /**
     * The request's {@code Accept-Encoding} (all its lines), or null when it has none or
     * precompressed siblings are not served (then nothing varies by it).
     */
    private String acceptEncoding(Request req) {
        if (!precompressed) {
            return null;
        }
        // One line, the common case, without allocating; several joined as one list (RFC 9110 §5.3).
        return req.headers().count("Accept-Encoding") > 1
                ? String.join(", ", req.headers().all("Accept-Encoding")) : req.header("Accept-Encoding");
    }

    /** Sends a representation, answering conditionals and ranges. */
    private void send(Request req, Response res, Representation r, boolean vary) throws IOException {
        if (vary && !res.headers().hasToken("Vary", "Accept-Encoding") && !res.headers().hasToken("Vary", "*")) {
            // Added, not set: a Vary some filter put there (a CORS filter's Origin) stays.
            res.headers().add("Vary", "Accept-Encoding");
        }
        String lastModified = r.lastModified();
        long modified = r.modifiedMillis();
        long now = System.currentTimeMillis() / 1000 * 1000;
        if (modified > now) {
            // A clock or archive in the future: RFC 9110 §8.8.2.1 wants Date instead, so that
            // caches and conditionals never see a validator ahead of the response (httpd too).
            modified = now;
            lastModified = HttpDate.format(now);
        }
        res.header("Last-Modified", lastModified);
        res.header("ETag", r.etag());
        res.header("Accept-Ranges", "bytes");
        if (r.encoding() != null) {
            res.header("Content-Encoding", r.encoding());
        }
        String etag = r.etag();
        int verdict = Conditionals.evaluate(req, etag, modified);
        if (cacheControl != null && verdict != 412) {
            res.header("Cache-Control", cacheControl);
        }
        if (verdict == 304) {
            res.status(304).send(new byte[0]);
            return;
        }
        if (verdict == 412) {
            error(req, res, 412, "Precondition Failed");
            return;
        }
        long size = r.size();
        String range = req.method().equals("GET") ? req.header("Range") : null;
        List<ByteRanges.Range> ranges = range != null && Conditionals.rangeApplies(req, etag, modified)
                ? ByteRanges.parse(range, size) : ByteRanges.WHOLE;
        if (ranges == ByteRanges.UNSATISFIABLE) {
            res.headers().remove("Cache-Control");
            res.header("Content-Range", "bytes */" + size);
            error(req, res, 416, "Range Not Satisfiable");
        } else if (ranges.size() == 1) {
            ByteRanges.Range b = ranges.get(0);
            res.status(206).header("Content-Type", r.type())
                    .header("Content-Range", "bytes " + b.first() + "-" + b.last() + "/" + size);
            body(req, res, r, b.first(), b.length());
        } else if (ranges.size() > 1) {
            multipart(res, r, ranges);
        } else {
            res.header("Content-Type", r.type());
            body(req, res, r, 0, size);
        }
    }

    private void body(Request req, Response res, Representation r, long pos, long count) throws IOException {
        if (req.method().equals("HEAD")) {
            res.header("Content-Length", Long.toString(count));
            res.send(new byte[0]);
        } else if (r.bytes() != null) {
            byte[] all = r.bytes();
            res.send(pos == 0 && count == all.length ? all : Arrays.copyOfRange(all, (int) pos, (int) (pos + count)));
        } else if (count <= SMALL) {
            res.send(pos == 0 && count == r.size() ? Files.readAllBytes(r.file()) : read(r.file(), pos, (int) count));
        } else if (site.enableSendfile()) {
            res.sendFile(r.file(), pos, count);
        } else {
            res.header("Content-Length", Long.toString(count));
            try (FileChannel fc = FileChannel.open(r.file()); OutputStream out = res.outputStream()) {
                Response.copyFileRange(fc, pos, count, out);
            }
        }
    }

    private static byte[] read(Path file, long pos, int count) throws IOException {
        try (FileChannel fc = FileChannel.open(file)) {
            ByteBuffer b = ByteBuffer.allocate(count);
            while (b.hasRemaining()) {
                if (fc.read(b, pos + b.position()) < 0) {
                    throw new IOException("file shrank while being read: " + file);
                }
            }
            return b.array();
        }
    }

    /** Several ranges as one {@code multipart/byteranges} body with an exact Content-Length. */
    private static void multipart(Response res, Representation r, List<ByteRanges.Range> ranges)
            throws IOException {
        String boundary = "LOOM" + Long.toHexString(BOUNDARIES.incrementAndGet());
        byte[][] heads = new byte[ranges.size()][];
        long length = 0;
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.Range b = ranges.get(i);
            heads[i] = ("\r\n--" + boundary + "\r\nContent-Type: " + r.type() + "\r\nContent-Range: bytes "
                    + b.first() + "-" + b.last() + "/" + r.size() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            length += heads[i].length + b.length();
        }
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        length += tail.length;
        res.status(206).header("Content-Type", "multipart/byteranges; boundary=" + boundary)
                .header("Content-Length", Long.toString(length));
        try (FileChannel fc = r.bytes() != null ? null : FileChannel.open(r.file());
             OutputStream out = res.outputStream()) {
            for (int i = 0; i < ranges.size(); i++) {
                ByteRanges.Range b = ranges.get(i);
                out.write(heads[i]);
                if (fc == null) {
                    out.write(r.bytes(), (int) b.first(), (int) b.length());
                } else {
                    Response.copyFileRange(fc, b.first(), b.length(), out);
                }
            }
            out.write(tail);
        }
    }

    /**
     * {@return the media type this handler sends a file of this name as} (the jar's mod_expires
     * asks it for a 304, which carries no Content-Type)
     *
     * @param fileName a file name or a path's last segment
     */
    public String typeForName(String fileName) {
        return types.forName(fileName);
    }

    /**
     * Sets what answers this handler's errors instead of their text (the jar's
     * {@code ErrorDocument}). Called once, before the server starts, so the threads serving
     * requests see it (thread start orders it before them).
     *
     * @param answer the answer, or null for the default texts
     */
    public void errorAnswer(ErrorAnswer answer) {
        this.errorAnswer = answer;
    }

    /** An error: the {@link ErrorAnswer}'s answer if it gives one, else a short text. */
    private void error(Request req, Response res, int status, String text) throws IOException {
        if (errorAnswer != null) {
            try {
                if (errorAnswer.answer(req, res, status)) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
        plain(res, status, text);
    }

    /**
     * Sends a file of DocumentRoot as an error's body (a local {@code ErrorDocument}) with that
     * status: no conditionals and no ranges (an error page is never 304 or 206), its media type
     * by name, at most 1 MiB.
     *
     * @param urlPath the error document's path, normalized
     * @return whether the file exists (and was sent); false leaves the answer to the caller
     */
    public boolean sendErrorDocument(Request req, Response res, int status, String urlPath) throws IOException {
        if (documents == null || urlPath.length() < 2) {
            return false;
        }
        Path file;
        BasicFileAttributes attrs;
        try {
            file = documents.root.resolve(urlPath.substring(1));
            attrs = documents.guard.attributes(file);
        } catch (IOException | InvalidPathException e) {
            return false;
        }
        if (attrs == null || !attrs.isRegularFile() || attrs.size() > 1 << 20) {
            return false;
        }
        byte[] body = Files.readAllBytes(file);
        res.status(status).header("Content-Type", types.forName(file.getFileName().toString()));
        res.send(body);
        return true;
    }

    /** A short text answer (errors, redirects), replacing any Content-Type set so far. */
    static void plain(Response res, int status, String text) throws IOException {
        res.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        res.send((text + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
