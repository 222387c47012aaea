package org.loommpm.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.loommpm.http.syntax.StatusReasons;

/**
 * A problem document (RFC 9457, {@code application/problem+json}): a machine-readable error
 * body for an HTTP API. Answer it with {@link #send(Response)}, or throw
 * {@link HttpException#problem(Problem, String)} from anywhere in a handler. {@link #toJson()}
 * writes it without a JSON library (so server-core can answer a bad JSON body with one even
 * where the codec failed). Extension members are not written: an application that needs them
 * writes its document with {@code Response.json}.
 *
 * <p>What goes in {@code detail} is shown to the client: say what the client can fix, never
 * internals (an exception's message, a stack trace, a path on the server).
 *
 * @param type a URI naming the problem type; {@code about:blank} (the default, when
 *             {@code null}) means the status says it all
 * @param title a short summary of the type (for {@code about:blank}: the status's reason
 *              phrase), or {@code null}
 * @param status the HTTP status (100-599)
 * @param detail an explanation of this occurrence, for the client, or {@code null}
 * @param instance a URI naming this occurrence, or {@code null}
 */
public record Problem(String type, String title, int status, String detail, String instance) {
    /** The media type of a problem document in JSON. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /**
     * Fills in the default type and checks the status.
     *
     * @param type the type URI, {@code null} for {@code about:blank}
     * @param title the title, or {@code null}
     * @param status the status
     * @param detail the detail, or {@code null}
     * @param instance the instance URI, or {@code null}
     * @throws IllegalArgumentException if the status is not 100-599
     */
    public Problem {
        if (type == null) {
            type = "about:blank";
        }
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be 100-599: " + status);
        }
    }

    /**
     * A problem of type {@code about:blank}: the title is the status's reason phrase.
     *
     * @param status the HTTP status (100-599)
     * @param detail an explanation for the client, or {@code null}
     * @return the problem
     * @throws IllegalArgumentException if the status is not 100-599
     */
    public static Problem of(int status, String detail) {
        return new Problem(null, reason(status), status, detail, null);
    }

    /**
     * The document as JSON: {@code type}, {@code title}, {@code status}, {@code detail} and
     * {@code instance} in that order, members that are {@code null} left out. Strings are
     * escaped per RFC 8259 (quotes, backslashes, control characters; U+2028, U+2029 and lone
     * surrogates as {@code \}{@code u} escapes), so any string gives valid JSON.
     *
     * @return the JSON text
     */
    public String toJson() {
        StringBuilder sb = new StringBuilder(96);
        sb.append("{\"type\":");
        string(sb, type);
        if (title != null) {
            sb.append(",\"title\":");
            string(sb, title);
        }
        sb.append(",\"status\":").append(status);
        if (detail != null) {
            sb.append(",\"detail\":");
            string(sb, detail);
        }
        if (instance != null) {
            sb.append(",\"instance\":");
            string(sb, instance);
        }
        return sb.append('}').toString();
    }

    /**
     * Answers with this problem: its status, {@code Content-Type: application/problem+json},
     * and the document as the body.
     *
     * @param res the response, not yet committed
     * @throws IOException if the connection fails
     */
    public void send(Response res) throws IOException {
        res.status(status);
        res.header("Content-Type", MEDIA_TYPE);
        res.send(toJson().getBytes(StandardCharsets.UTF_8));
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        // U+2028/2029 are valid JSON but end a line in JavaScript source.
                        unicode(sb, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        // A lone surrogate has no UTF-8 form: escaped, it stays the same char.
                        unicode(sb, c);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private static void unicode(StringBuilder sb, char c) {
        sb.append("\\u");
        String hex = Integer.toHexString(c);
        for (int k = hex.length(); k < 4; k++) {
            sb.append('0');
        }
        sb.append(hex);
    }

    /** The status's standard reason phrase (RFC 9110 §15), or {@code null} for one without. */
    private static String reason(int status) {
        String r = StatusReasons.reason(status);
        return r.equals("Unknown") ? null : r;
    }
}
