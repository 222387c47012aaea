package org.loommpm.cli.children;

import org.loommpm.cli.logging.LogSettings;
import org.loommpm.config.ServerConfig;

/**
 * What the supervisor takes of one reading of the configuration; the jar's {@code Main} makes it
 * from the parsed configuration.
 *
 * @param engine the children's engine settings: Listen, StartServers, the pool policy, the timeouts
 * @param logs the logs (the supervisor writes only the error log; its children the access logs)
 * @param description where it came from, for the start-up banner
 * @param childProcesses whether it still says {@code ChildProcesses On} (a reload turning it off
 *     is reported, not applied)
 */
public record SupervisorConfig(ServerConfig engine, LogSettings logs, String description, boolean childProcesses) {
}
