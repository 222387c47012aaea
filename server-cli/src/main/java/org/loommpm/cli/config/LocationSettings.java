package org.loommpm.cli.config;

import org.loommpm.cli.access.AccessRule;
import org.loommpm.cli.access.AuthConfig;
import org.loommpm.cli.location.LocationPath;

/**
 * One {@code <Location PATH>} section.
 *
 * @param path the URL-path prefix; it matches the path itself and everything below it
 * @param handler the {@code SetHandler} name ({@code server-status}), or null when not set
 * @param require the {@code Require} lines and authorization containers, or null when there are none here
 * @param auth the authentication directives ({@code AuthType} ...), or null when there are none here
 */
public record LocationSettings(String path, String handler, AccessRule require, AuthConfig auth) {
    /** Whether this section applies to a normalized request path (whole segments only). */
    public boolean matches(String requestPath) {
        return LocationPath.matches(path, requestPath);
    }
}
