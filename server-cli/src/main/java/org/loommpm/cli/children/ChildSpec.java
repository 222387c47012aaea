package org.loommpm.cli.children;

import java.nio.file.Path;

/**
 * What a child process is told on its command line (the internal option {@code --child SPEC},
 * never typed by an operator): its scoreboard file and record, its id and generation. The rest
 * (the configuration file, {@code -C}/{@code -c}) is the supervisor's own command line, repeated.
 *
 * @param record the child record it owns in the scoreboard
 * @param id the child's id (unique for the supervisor's lifetime, shown on the status page)
 * @param generation the generation it belongs to
 * @param scoreboard the scoreboard file
 */
public record ChildSpec(int record, int id, int generation, Path scoreboard) {
    /** The option naming it. */
    public static final String OPTION = "--child";

    /** {@code record:id:generation:path} (the path last: it may contain colons). */
    public String encode() {
        return record + ":" + id + ":" + generation + ":" + scoreboard;
    }

    /**
     * Parses {@link #encode}'s form.
     *
     * @throws IllegalArgumentException if it is malformed
     */
    public static ChildSpec decode(String s) {
        String[] p = s.split(":", 4);
        if (p.length != 4 || p[3].isEmpty()) {
            throw new IllegalArgumentException("malformed " + OPTION + " value '" + s + "'");
        }
        try {
            return new ChildSpec(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Path.of(p[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed " + OPTION + " value '" + s + "'", e);
        }
    }
}
