package org.loommpm.cli.errordoc;

import java.util.Locale;

/**
 * One {@code ErrorDocument} line's answer, read with httpd's heuristic: text with a space (or
 * that is neither a path nor a URL) is sent as the body; a path starting with {@code /} is a
 * local document sent with the error's status; a URL is a 302 to it; {@code default} restores the
 * server's own answer (undoing an outer scope's).
 *
 * @param kind which of the four
 * @param value the text, path or URL (null for {@link Kind#DEFAULT})
 */
public record ErrorDocument(Kind kind, String value) {
    /** The four forms. */
    public enum Kind {
        /** A message sent as the body. */
        TEXT,
        /** A local path: its file, with the error's status. */
        LOCAL,
        /** A URL: a 302 redirect to it. */
        URL,
        /** The server's own answer. */
        DEFAULT
    }

    /**
     * Reads the second argument of {@code ErrorDocument}.
     *
     * @param status the status it answers
     * @param document the argument (its quotes already removed)
     * @return the answer, or null for a URL given to 401 (httpd ignores it: a browser would never
     *     ask for credentials again)
     */
    public static ErrorDocument parse(int status, String document) {
        if (document.toLowerCase(Locale.ROOT).equals("default")) {
            return new ErrorDocument(Kind.DEFAULT, null);
        }
        if (document.indexOf(' ') >= 0) {
            return new ErrorDocument(Kind.TEXT, document);
        }
        if (document.startsWith("/")) {
            return new ErrorDocument(Kind.LOCAL, document);
        }
        if (isUrl(document)) {
            return status == 401 ? null : new ErrorDocument(Kind.URL, document);
        }
        return new ErrorDocument(Kind.TEXT, document);
    }

    /** httpd's {@code ap_is_url}: a scheme of letters, digits, {@code +}, {@code -}, {@code .}, then a colon. */
    private static boolean isUrl(String s) {
        int colon = s.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '+' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }
}
