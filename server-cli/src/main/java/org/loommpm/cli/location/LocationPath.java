package org.loommpm.cli.location;

/**
 * How a {@code <Location PATH>} section, and the URL-path of an {@code Alias} or a
 * {@code Redirect}, matches a request path: the path itself and everything below it, by whole
 * segments ({@code /a} takes {@code /a} and {@code /a/b}, not {@code /ab}).
 */
public final class LocationPath {
    private LocationPath() {
    }

    /**
     * Whether {@code path} takes {@code requestPath}.
     *
     * @param path the section's (or directive's) URL-path
     * @param requestPath a normalized request path
     * @return whether it is {@code path} or lies below it
     */
    public static boolean matches(String path, String requestPath) {
        if (!requestPath.startsWith(path)) {
            return false;
        }
        return requestPath.length() == path.length() || path.endsWith("/") || requestPath.charAt(path.length()) == '/';
    }
}
