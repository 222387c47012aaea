package org.loommpm.staticfiles.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.http.HttpDate;

/**
 * The HTML page {@code Options Indexes} shows for a directory without an index file. Every name
 * is HTML-escaped in the text and percent-encoded in the link, so a file called
 * {@code <script>.html} is shown, not run. Its escaping and encoding serve mod_alias's redirects too.
 */
public final class DirectoryListing {
    private DirectoryListing() {
    }

    /**
     * @param urlPath the directory's normalized URL path, ending with {@code /}
     * @param dir the directory
     * @param guard what decides whether an entry may be served: one it would refuse (a symlink
     *     leaving DocumentRoot) is not listed, as mod_autoindex hides it, so neither its name
     *     nor its target's size and date show
     */
    static byte[] render(String urlPath, Path dir, RootGuard guard) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                BasicFileAttributes a;
                try {
                    a = guard.attributes(p);
                } catch (IOException e) {
                    continue; // a dangling symlink or a file removed meanwhile: not listed
                }
                if (a == null) {
                    continue;
                }
                String name = p.getFileName().toString() + (a.isDirectory() ? "/" : "");
                rows.add(new String[] {name, a.isDirectory() ? "-" : Long.toString(a.size()),
                        HttpDate.format(a.lastModifiedTime().toMillis())});
            }
        }
        rows.sort((x, y) -> x[0].compareTo(y[0]));
        StringBuilder sb = new StringBuilder(512 + rows.size() * 160);
        String title = "Index of " + escape(urlPath);
        sb.append("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title></head>\n<body>\n<h1>").append(title).append("</h1>\n<table>\n")
                .append("<tr><th>Name</th><th>Last modified</th><th>Size</th></tr>\n");
        if (!urlPath.equals("/")) {
            sb.append("<tr><td><a href=\"../\">Parent Directory</a></td><td></td><td>-</td></tr>\n");
        }
        for (String[] r : rows) {
            sb.append("<tr><td><a href=\"").append(escape(encode(r[0]))).append("\">").append(escape(r[0]))
                    .append("</a></td><td>").append(r[2]).append("</td><td>").append(r[1]).append("</td></tr>\n");
        }
        sb.append("</table>\n</body></html>\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** HTML text and attribute escaping. */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * Percent-encodes a path or a name as UTF-8, keeping {@code /}; a colon is encoded too, so a
     * relative link never reads as a URL scheme.
     */
    public static String encode(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 8);
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
            if (plain) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }
}
