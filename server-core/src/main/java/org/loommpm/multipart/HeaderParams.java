package org.loommpm.multipart;

import java.util.Locale;

/**
 * The parameters of a header value such as {@code form-data; name="a"; filename="b.txt"} or
 * {@code multipart/form-data; boundary=xyz} (RFC 9110 §5.6.6). Lenient as browsers are: a quoted
 * string's backslash escapes only {@code "} and {@code \} (older browsers sent Windows paths
 * with bare backslashes, kept as they are), an unterminated quote runs to the end.
 */
final class HeaderParams {
    private HeaderParams() {
    }

    /** {@return the value before its parameters, trimmed and lower-case} */
    static String type(String value) {
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    /** {@return the first parameter named {@code name} (case-insensitive), or {@code null}} */
    static String param(String value, String name) {
        int i = value.indexOf(';');
        int n = value.length();
        while (i >= 0 && i < n) {
            while (i < n && (value.charAt(i) == ';' || value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
                i++;
            }
            int nameStart = i;
            while (i < n && value.charAt(i) != '=' && value.charAt(i) != ';') {
                i++;
            }
            String key = value.substring(nameStart, i).trim();
            if (i >= n || value.charAt(i) == ';') {
                continue; // a parameter without a value: skipped
            }
            i++; // '='
            while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
                i++;
            }
            String v;
            if (i < n && value.charAt(i) == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < n && value.charAt(i) != '"') {
                    char c = value.charAt(i);
                    if (c == '\\' && i + 1 < n && (value.charAt(i + 1) == '"' || value.charAt(i + 1) == '\\')) {
                        c = value.charAt(++i);
                    }
                    b.append(c);
                    i++;
                }
                i++; // the closing quote (or past the end)
                v = b.toString();
                while (i < n && value.charAt(i) != ';') {
                    i++; // anything after the quoted string up to the next parameter is ignored
                }
            } else {
                int start = i;
                while (i < n && value.charAt(i) != ';') {
                    i++;
                }
                v = value.substring(start, i).trim();
            }
            if (key.equalsIgnoreCase(name)) {
                return v;
            }
        }
        return null;
    }
}
