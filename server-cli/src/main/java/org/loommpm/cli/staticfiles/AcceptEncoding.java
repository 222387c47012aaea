package org.loommpm.cli.staticfiles;

/** Reads {@code Accept-Encoding} (RFC 9110 §12.5.3) for one coding. */
final class AcceptEncoding {
    private AcceptEncoding() {
    }

    /**
     * Whether {@code coding} is acceptable: listed (or covered by {@code *}) with a q-value
     * above 0. An explicit entry wins over {@code *}.
     */
    static boolean allows(String header, String coding) {
        Boolean star = null;
        for (String part : header.split(",")) {
            String p = part.trim();
            int semi = p.indexOf(';');
            String name = (semi < 0 ? p : p.substring(0, semi)).trim();
            boolean positive = semi < 0 || qValue(p.substring(semi + 1)) > 0;
            if (name.equalsIgnoreCase(coding)) {
                return positive;
            }
            if (name.equals("*")) {
                star = positive;
            }
        }
        return star != null && star;
    }

    private static double qValue(String params) {
        for (String param : params.split(";")) {
            String t = param.trim();
            if (t.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Double.parseDouble(t.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
