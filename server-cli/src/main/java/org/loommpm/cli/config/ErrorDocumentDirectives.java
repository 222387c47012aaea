package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import java.lang.System.Logger.Level;
import org.loommpm.cli.errordoc.ErrorDocument;
import org.loommpm.cli.errordoc.ErrorDocuments;

/**
 * {@code ErrorDocument status document}, at the server level and in {@code <Location>}: kept by
 * scope as {@link ErrorDocuments} under {@link ErrorDocuments#KEY} (absent when no line is read).
 * A status that is no error (below 400, above 599) is refused; httpd's expressions
 * ({@code %{...}}) are not evaluated, so a document holding one is refused rather than sent
 * literally.
 */
final class ErrorDocumentDirectives {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private ErrorDocumentDirectives() {
    }

    /** The directive; an enum for the same reason as {@link EngineDirectives.D}. */
    enum D implements DirectiveTable.Action {
        ERROR_DOCUMENT;

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            String code = l.args().get(0);
            int status;
            try {
                status = Integer.parseInt(code);
            } catch (NumberFormatException e) {
                status = -1;
            }
            if (status < 400 || status > 599 || code.length() != 3) {
                throw l.error("ErrorDocument: Unsupported HTTP response code " + code + " (an error status, 400 to 599)");
            }
            String document = l.args().get(1);
            if (document.contains("%{")) {
                throw l.error("ErrorDocument: httpd's expressions (%{...}) are not available; write the text, path or URL out");
            }
            ErrorDocument doc = ErrorDocument.parse(status, document);
            if (doc == null) {
                LOG.log(Level.WARNING, "LM3021 {0}:{1} cannot use a full URL in a 401 ErrorDocument directive --- ignoring!",
                        l.source(), l.line());
                return;
            }
            s.extension(ErrorDocuments.KEY, ErrorDocuments::new).add(s.locationPath(), s.location, status, doc);
        }
    }

    static void register(DirectiveTable t) {
        t.register("ErrorDocument", 2, 2, SERVER_OR_LOCATION, "status text|/local/path|URL|default", D.ERROR_DOCUMENT);
    }
}
