package org.loommpm.cli.config;

import java.util.List;
import org.loommpm.cli.logging.LogSettings;
import org.loommpm.config.ServerConfig;

/**
 * A whole parsed configuration: the engine's settings, the site, the logs, and what parsing had
 * to say (warnings where httpd would clamp). Immutable; a reload parses a new one.
 *
 * @param engine the engine and HTTP/1.1 settings
 * @param site documents, types, options and locations
 * @param logs error and access logs
 * @param warnings clamped values and similar notes, each with its file and line
 * @param description where it came from, for the start-up banner ({@code /etc/loom.conf})
 * @param extensions state of directive modules registered later (TLS, HTTP/2), by their key
 */
public record LoomConfig(ServerConfig engine, SiteSettings site, LogSettings logs, List<String> warnings,
                         String description, java.util.Map<String, Object> extensions) {
}
