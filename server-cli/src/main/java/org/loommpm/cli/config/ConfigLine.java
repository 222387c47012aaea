package org.loommpm.cli.config;

import java.util.List;

/**
 * One logical line of a configuration file: a directive with its arguments, or a section's
 * opening ({@code <Location /x>}, name {@code <Location}) or closing ({@code </Location>}).
 *
 * @param source the file (or option) it came from
 * @param line the 1-based number of its first physical line
 * @param name the directive name as written
 * @param args the arguments, unquoted
 */
public record ConfigLine(String source, int line, String name, List<String> args) {
    /** An error located at this line. */
    public ConfigException error(String message) {
        return new ConfigException(source, line, message);
    }
}
