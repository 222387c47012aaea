package org.loommpm.cli.errordoc;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.function.BiPredicate;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.staticfiles.internal.ErrorAnswer;
import org.loommpm.staticfiles.internal.StaticFileHandler;
import org.loommpm.staticfiles.internal.UrlPath;

/**
 * {@code ErrorDocument} for the site's own errors (the static files', {@code Require}'s and
 * logins', refused paths'): text is sent as {@code text/html; charset=iso-8859-1} with the
 * error's status, as httpd sends it; a URL is a 302 to it; a local path is its file from
 * DocumentRoot with the error's status (never 304 or 206), provided {@code Require} lets anyone
 * read that path: a document that is missing, not a file, or protected leaves the default answer
 * (LM3020). Answers the proxy's backends and the applications give are theirs, as in httpd
 * without {@code ProxyErrorOverride}. Stateless: any thread.
 */
public final class SiteErrors implements ErrorAnswer {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final ErrorDocuments documents;
    private final boolean allowEncodedSlashes;
    private final StaticFileHandler files;
    private final BiPredicate<String, Request> readable;

    /**
     * @param documents the lines read from the configuration
     * @param allowEncodedSlashes {@code AllowEncodedSlashes On}: the path a {@code <Location>} sees
     * @param files the static files, which send a local document
     * @param readable whether {@code Require} lets anyone (no login) read a normalized path
     */
    public SiteErrors(ErrorDocuments documents, boolean allowEncodedSlashes, StaticFileHandler files,
                      BiPredicate<String, Request> readable) {
        this.documents = documents;
        this.allowEncodedSlashes = allowEncodedSlashes;
        this.files = files;
        this.readable = readable;
    }

    @Override
    public boolean answer(Request req, Response res, int status) throws Exception {
        String path = null;
        if (documents.scoped()) {
            try {
                path = UrlPath.normalize(req, allowEncodedSlashes);
            } catch (UrlPath.Rejected e) {
                // a refused path: the server level's lines
            }
        }
        ErrorDocument doc = documents.forPath(path).get(status);
        if (doc == null) {
            return false;
        }
        switch (doc.kind()) {
            case DEFAULT -> {
                return false;
            }
            case TEXT -> {
                res.status(status).header("Content-Type", "text/html; charset=iso-8859-1");
                res.send(doc.value().getBytes(StandardCharsets.ISO_8859_1));
                return true;
            }
            case URL -> {
                res.status(302).header("Location", doc.value()).header("Content-Type", "text/html; charset=iso-8859-1");
                res.send(("<html><body><p>The document has moved <a href=\"" + doc.value().replace("\"", "&quot;")
                        + "\">here</a>.</p></body></html>\n").getBytes(StandardCharsets.ISO_8859_1));
                return true;
            }
            case LOCAL -> {
                String target = doc.value();
                int q = target.indexOf('?');
                String docPath;
                try {
                    docPath = UrlPath.normalize(q < 0 ? target : target.substring(0, q));
                } catch (UrlPath.Rejected e) {
                    docPath = null;
                }
                if (docPath != null && readable.test(docPath, req) && files.sendErrorDocument(req, res, status, docPath)) {
                    return true;
                }
                LOG.log(Level.WARNING, "LM3020 ErrorDocument {0} {1}: not a readable file of DocumentRoot; the default "
                        + "answer was sent", status, target);
                return false;
            }
            default -> throw new IllegalStateException(doc.kind().toString());
        }
    }
}
