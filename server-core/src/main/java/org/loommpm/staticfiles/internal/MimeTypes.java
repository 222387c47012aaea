package org.loommpm.staticfiles.internal;

import java.util.Locale;
import java.util.Map;

/**
 * Media types by file extension: the configuration's ({@code TypesConfig}, then {@code AddType})
 * first, then a built-in table of the common web types. The built-in table is a {@code switch},
 * compiled to a hash jump: nothing to build at start-up.
 */
final class MimeTypes {
    /** What a file of unknown type is sent as. */
    static final String DEFAULT = "application/octet-stream";

    private final Map<String, String> configured;

    /** @param configured extension (lowercase, no dot) to type, taking precedence over the built-ins */
    MimeTypes(Map<String, String> configured) {
        this.configured = configured;
    }

    /** The type for a file name, from its last extension; {@link #DEFAULT} when unknown. */
    String forName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return DEFAULT;
        }
        String ext = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        String t = configured.isEmpty() ? null : configured.get(ext);
        if (t != null) {
            return t;
        }
        t = builtIn(ext);
        return t != null ? t : DEFAULT;
    }

    /** The built-in type of an extension (lowercase), or null. */
    static String builtIn(String ext) {
        return switch (ext) {
            case "html", "htm" -> "text/html";
            case "css" -> "text/css";
            case "js", "mjs" -> "text/javascript";
            case "json", "map" -> "application/json";
            case "txt", "text", "log", "conf" -> "text/plain";
            case "md" -> "text/markdown";
            case "csv" -> "text/csv";
            case "xml" -> "application/xml";
            case "xhtml" -> "application/xhtml+xml";
            case "svg" -> "image/svg+xml";
            case "png" -> "image/png";
            case "jpg", "jpeg" -> "image/jpeg";
            case "gif" -> "image/gif";
            case "webp" -> "image/webp";
            case "avif" -> "image/avif";
            case "ico" -> "image/vnd.microsoft.icon";
            case "bmp" -> "image/bmp";
            case "tif", "tiff" -> "image/tiff";
            case "woff" -> "font/woff";
            case "woff2" -> "font/woff2";
            case "ttf" -> "font/ttf";
            case "otf" -> "font/otf";
            case "pdf" -> "application/pdf";
            case "zip" -> "application/zip";
            case "gz" -> "application/gzip";
            case "br" -> "application/x-brotli";
            case "tar" -> "application/x-tar";
            case "wasm" -> "application/wasm";
            case "mp4" -> "video/mp4";
            case "webm" -> "video/webm";
            case "mp3" -> "audio/mpeg";
            case "ogg" -> "audio/ogg";
            case "wav" -> "audio/wav";
            default -> null;
        };
    }
}
