package org.loommpm.cli.alias;

import java.lang.System.Logger.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.loommpm.staticfiles.internal.DirectoryListing;

/**
 * The regular expressions of {@code RedirectMatch} and {@code AliasMatch}: Java's
 * {@link Pattern} in place of httpd's PCRE, refusing at start-up what would silently mean
 * something else, searched (not anchored, as {@code ap_regexec}) in the normalized request path
 * with a bound on the work, and httpd's {@code $0}..{@code $9} substitution.
 */
final class Regex {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");
    /**
     * Characters a regex may read from one path before it is given up as no match: PCRE has
     * such a limit (httpd's {@code ap_regexec} then reports no match); Java's regex has none,
     * so a nested quantifier could backtrack on a long crafted path for minutes. Far beyond what
     * a linear expression reads from any path the request line limits allow.
     */
    static final int BUDGET = 1_000_000;

    private Regex() {
    }

    /**
     * Compiles a configured expression.
     *
     * @throws IllegalArgumentException with the reason, for a syntax error or a POSIX bracket
     *     class ({@code [[:alpha:]]}), which PCRE reads as a class and Java as a set of the
     *     characters {@code :alph}
     */
    static Pattern compile(String regex) {
        if (regex.contains("[:") && regex.matches("(?s).*\\[:\\^?[a-z]+:].*")) {
            throw new IllegalArgumentException("'" + regex + "': POSIX classes such as [[:alpha:]] are not "
                    + "supported by Java's regular expressions (they would match the characters ':', 'a', 'l' ...); "
                    + "use \\p{Alpha}, \\p{Digit}, \\p{Alnum}, \\p{Space} ... instead");
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("'" + regex + "' is not a valid regular expression: "
                    + e.getDescription() + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
        } catch (StackOverflowError e) {
            throw new IllegalArgumentException("'" + regex + "' is nested too deeply");
        }
    }

    /**
     * Searches {@code path} for {@code p} within {@link #BUDGET}.
     *
     * @param where the rule's line, for the error log
     * @return the matcher positioned on the first match, or null for none (or when the budget ran
     *     out, or the search recursed deeper than the stack allows)
     */
    static Matcher find(Pattern p, String path, String where) {
        Matcher m = p.matcher(new Budgeted(path));
        try {
            return m.find() ? m : null;
        } catch (Budgeted.Exhausted e) {
            LOG.log(Level.WARNING, "LM1107 the regular expression of {0} read more than {1} characters of the "
                    + "path {2} (it backtracks): taken as no match", where, BUDGET, path);
            return null;
        } catch (StackOverflowError e) {
            // Java's regex recurses once per repetition of a group ((a|b)*): a long path overflows
            // the stack well within the budget. PCRE has a recursion limit too (httpd: no match).
            LOG.log(Level.WARNING, "LM1107 the regular expression of {0} recursed too deeply on the path {1} (a "
                    + "repeated group over a long path): taken as no match", where, path);
            return null;
        }
    }

    /**
     * httpd's {@code ap_pregsub}: {@code $0}..{@code $9} become the groups of {@code m} (an
     * unmatched group: nothing), a backslash takes the next character literally.
     *
     * @param m the match, or null to substitute nothing for every group (checking what is written)
     *
     * @param escape percent-encodes each group's text ({@code RedirectMatch}): a group is
     *     decoded path text, and a URL must not carry it raw
     */
    static String substitute(String template, Matcher m, boolean escape) {
        StringBuilder sb = new StringBuilder(template.length() + 32);
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '$' && i + 1 < template.length() && isDigit(template.charAt(i + 1))) {
                int g = template.charAt(++i) - '0';
                String text = m != null && g <= m.groupCount() ? m.group(g) : null;
                if (text != null) {
                    sb.append(escape ? DirectoryListing.encode(text) : text);
                }
            } else if (c == '\\' && i + 1 < template.length()) {
                sb.append(template.charAt(++i));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * Refuses a back-reference to a group {@code p} does not have ({@code $3} with two groups): httpd
     * substitutes nothing, which is never what was meant.
     *
     * @throws IllegalArgumentException naming the reference
     */
    static void checkReferences(String template, Pattern p) {
        int groups = p.matcher("").groupCount();
        for (int i = 0; i + 1 < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '$' && isDigit(template.charAt(i + 1)) && template.charAt(i + 1) - '0' > groups) {
                throw new IllegalArgumentException("'" + template + "' refers to $" + template.charAt(i + 1)
                        + " but the expression has " + (groups == 1 ? "1 group" : groups + " groups"));
            }
        }
    }

    /** {@return the index of the first {@code $0}..{@code $9} in {@code template}, or -1} */
    static int firstReference(String template) {
        for (int i = 0; i + 1 < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '$' && isDigit(template.charAt(i + 1))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The path as the matcher reads it, counting the characters read. */
    private static final class Budgeted implements CharSequence {
        /** The budget ran out; no stack trace. */
        static final class Exhausted extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Exhausted() {
                super(null, null, false, false);
            }
        }

        private final String s;
        private int left = BUDGET;

        Budgeted(String s) {
            this.s = s;
        }

        @Override
        public char charAt(int index) {
            if (--left < 0) {
                throw new Exhausted();
            }
            return s.charAt(index);
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return s.substring(start, end);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
