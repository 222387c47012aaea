package org.loommpm.cli.staticfiles;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.config.SiteSettings;
import org.loommpm.http1.HttpDate;

/**
 * Serves files under DocumentRoot for GET and HEAD: media types, {@code ETag} and
 * {@code Last-Modified} with conditional requests, byte ranges (one range, or several as
 * {@code multipart/byteranges}), {@code DirectoryIndex}, listings with {@code Options Indexes},
 * and precompressed {@code .br}/{@code .gz} siblings.
 *
 * <p><b>Staying inside DocumentRoot.</b> The path arrives normalized by {@link UrlPath} (plain
 * names only), so resolving it under the root cannot climb out; what can is a symlink. Unless
 * {@code FollowSymLinks} is on, {@link RootGuard} refuses (403) a path whose real location is
 * outside the root's real path.
 *
 * <p><b>Sending.</b> Files up to {@value #SMALL} bytes are sent with the head in one write, from
 * a {@link SmallFileCache} checked against the file's attributes on every request; larger ones
 * go through {@code transferTo} ({@code EnableSendfile On}) or are copied through the response
 * stream.
 */
public final class StaticFileHandler {
    /** Largest body read into memory and written with the head in one system call. */
    static final int SMALL = 32 * 1024;
    private static final String ALLOW = "GET, HEAD, OPTIONS";
    private static final AtomicLong BOUNDARIES = new AtomicLong(System.nanoTime());

    private final SiteSettings site;
    private final Path root;
    private final MimeTypes types;
    private final Handler welcome;
    private final RootGuard guard;
    /** Files up to {@link #SMALL} bytes: 4096 of them, 32 MiB at most. */
    private final SmallFileCache cache = new SmallFileCache(4096, 32L << 20);

    /**
     * @param site DocumentRoot (may be null: then only the welcome page), options, index files
     * @param welcome what {@code /} shows when DocumentRoot has no index for it, or null
     */
    public StaticFileHandler(SiteSettings site, Handler welcome) {
        this.site = site;
        this.root = site.documentRoot();
        this.types = new MimeTypes(site.types());
        this.welcome = welcome;
        this.guard = root != null ? new RootGuard(root, site.followSymLinks()) : null;
    }

    /**
     * Answers a request for {@code urlPath}, a path normalized by {@link UrlPath}.
     */
    public void serve(Request req, Response res, String urlPath) throws Exception {
        String method = req.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            res.header("Allow", ALLOW);
            if (method.equals("OPTIONS")) {
                res.status(204).send(new byte[0]);
            } else {
                plain(res, 405, "Method Not Allowed");
            }
            return;
        }
        if (root == null) {
            notFoundOrWelcome(req, res, urlPath);
            return;
        }
        Path file;
        BasicFileAttributes attrs;
        try {
            file = urlPath.length() == 1 ? root : root.resolve(urlPath.substring(1));
            attrs = guard.attributes(file);
        } catch (NoSuchFileException | NotDirectoryException | InvalidPathException e) {
            notFoundOrWelcome(req, res, urlPath);
            return;
        } catch (AccessDeniedException e) {
            plain(res, 403, "Forbidden");
            return;
        }
        if (attrs == null) {
            plain(res, 403, "Forbidden");
            return;
        }
        if (attrs.isDirectory()) {
            directory(req, res, urlPath, file);
        } else if (attrs.isRegularFile()) {
            file(req, res, file, attrs);
        } else {
            plain(res, 403, "Forbidden");
        }
    }

    private void notFoundOrWelcome(Request req, Response res, String urlPath) throws Exception {
        if (welcome != null && urlPath.equals("/")) {
            welcome.handle(req, res);
        } else {
            plain(res, 404, "Not Found");
        }
    }

    private void directory(Request req, Response res, String urlPath, Path dir) throws Exception {
        if (!urlPath.endsWith("/")) {
            // mod_dir's trailing-slash redirect, so relative links inside the index resolve.
            String q = req.query();
            res.header("Location", DirectoryListing.encode(urlPath) + "/" + (q != null ? "?" + q : ""));
            plain(res, 301, "Moved Permanently");
            return;
        }
        for (String name : site.directoryIndex()) {
            Path index = dir.resolve(name);
            BasicFileAttributes a;
            try {
                a = guard.attributes(index);
            } catch (IOException e) {
                continue;
            }
            if (a != null && a.isRegularFile()) {
                file(req, res, index, a);
                return;
            }
        }
        if (site.indexes()) {
            res.header("Content-Type", "text/html; charset=UTF-8");
            res.send(DirectoryListing.render(urlPath, dir));
        } else if (welcome != null && urlPath.equals("/")) {
            welcome.handle(req, res);
        } else {
            plain(res, 403, "Forbidden");
        }
    }

    private void file(Request req, Response res, Path file, BasicFileAttributes attrs) throws IOException {
        String name = file.getFileName().toString();
        String type = types.forName(name);
        String encoding = null;
        String accept = req.header("Accept-Encoding");
        if (accept != null) {
            for (String enc : new String[] {"br", "gzip"}) {
                if (!AcceptEncoding.allows(accept, enc)) {
                    continue;
                }
                Path sibling = file.resolveSibling(name + (enc.equals("br") ? ".br" : ".gz"));
                try {
                    BasicFileAttributes a = guard.attributes(sibling);
                    if (a != null && a.isRegularFile()) {
                        file = sibling;
                        attrs = a;
                        encoding = enc;
                        break;
                    }
                } catch (IOException e) {
                    // no such variant
                }
            }
            res.header("Vary", "Accept-Encoding");
        }
        long size = attrs.size();
        long modified = attrs.lastModifiedTime().toMillis() / 1000 * 1000; // HTTP dates have whole seconds
        SmallFileCache.Entry cached = size <= SMALL ? cache.get(file, attrs) : null;
        String etag;
        String lastModified;
        if (cached != null) {
            etag = cached.etag();
            lastModified = cached.lastModified();
        } else {
            long micros = attrs.lastModifiedTime().to(java.util.concurrent.TimeUnit.MICROSECONDS);
            etag = "\"" + Long.toHexString(size) + "-" + Long.toHexString(micros)
                    + (encoding != null ? "-" + encoding : "") + "\"";
            lastModified = HttpDate.format(modified);
        }
        res.header("Last-Modified", lastModified);
        res.header("ETag", etag);
        res.header("Accept-Ranges", "bytes");
        if (encoding != null) {
            res.header("Content-Encoding", encoding);
        }
        int verdict = Conditionals.evaluate(req, etag, modified);
        if (verdict == 304) {
            res.status(304).send(new byte[0]);
            return;
        }
        if (verdict == 412) {
            plain(res, 412, "Precondition Failed");
            return;
        }
        String range = req.method().equals("GET") ? req.header("Range") : null;
        List<ByteRanges.Range> ranges = range != null && Conditionals.rangeApplies(req, etag, modified)
                ? ByteRanges.parse(range, size) : ByteRanges.WHOLE;
        if (ranges == ByteRanges.UNSATISFIABLE) {
            res.header("Content-Range", "bytes */" + size);
            plain(res, 416, "Range Not Satisfiable");
        } else if (ranges.size() == 1) {
            ByteRanges.Range r = ranges.get(0);
            res.status(206).header("Content-Type", type)
                    .header("Content-Range", "bytes " + r.first() + "-" + r.last() + "/" + size);
            body(req, res, file, r.first(), r.length(), size);
        } else if (ranges.size() > 1) {
            multipart(res, file, type, size, ranges);
        } else {
            res.header("Content-Type", type);
            if (size <= SMALL && !req.method().equals("HEAD")) {
                res.send((cached != null ? cached : cache.load(file, attrs, etag, lastModified)).bytes());
            } else {
                body(req, res, file, 0, size, size);
            }
        }
    }

    private void body(Request req, Response res, Path file, long pos, long count, long size) throws IOException {
        if (req.method().equals("HEAD")) {
            res.header("Content-Length", Long.toString(count));
            res.send(new byte[0]);
        } else if (count <= SMALL) {
            byte[] bytes = pos == 0 && count == size ? Files.readAllBytes(file) : read(file, pos, (int) count);
            res.send(bytes);
        } else if (site.enableSendfile()) {
            res.sendFile(file, pos, count);
        } else {
            res.header("Content-Length", Long.toString(count));
            try (FileChannel fc = FileChannel.open(file); OutputStream out = res.outputStream()) {
                copy(fc, pos, count, out);
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

    private static void copy(FileChannel fc, long pos, long count, OutputStream out) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 64 * 1024));
        long p = pos;
        long end = pos + count;
        while (p < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - p));
            int n = fc.read(buf, p);
            if (n < 0) {
                throw new IOException("file shrank while being sent");
            }
            out.write(buf.array(), 0, n);
            p += n;
        }
    }

    /** Several ranges as one {@code multipart/byteranges} body with an exact Content-Length. */
    private static void multipart(Response res, Path file, String type, long size, List<ByteRanges.Range> ranges)
            throws IOException {
        String boundary = "LOOM" + Long.toHexString(BOUNDARIES.incrementAndGet());
        byte[][] heads = new byte[ranges.size()][];
        long length = 0;
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.Range r = ranges.get(i);
            heads[i] = ("\r\n--" + boundary + "\r\nContent-Type: " + type + "\r\nContent-Range: bytes " + r.first()
                    + "-" + r.last() + "/" + size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            length += heads[i].length + r.length();
        }
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        length += tail.length;
        res.status(206).header("Content-Type", "multipart/byteranges; boundary=" + boundary)
                .header("Content-Length", Long.toString(length));
        try (FileChannel fc = FileChannel.open(file); OutputStream out = res.outputStream()) {
            for (int i = 0; i < ranges.size(); i++) {
                out.write(heads[i]);
                copy(fc, ranges.get(i).first(), ranges.get(i).length(), out);
            }
            out.write(tail);
        }
    }

    /** A short text answer (errors, redirects), replacing any Content-Type set so far. */
    static void plain(Response res, int status, String text) throws IOException {
        res.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        res.send((text + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
