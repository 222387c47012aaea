package org.loommpm.cli.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The directive tests' way to read a configuration: written to a file, parsed as {@code -f FILE}. */
final class ConfigFiles {
    private ConfigFiles() {
    }

    /**
     * Writes {@code text} to {@code dir/loom.conf} and parses it with the standard directives.
     *
     * @throws ConfigException the parser's first error
     */
    static LoomConfig parse(Path dir, String text) throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, text);
        return new ConfigParser(DirectiveTable.standard()).parse(new ConfigParser.Source(f, null, List.of(), List.of()));
    }
}
