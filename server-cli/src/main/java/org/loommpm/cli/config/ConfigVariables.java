package org.loommpm.cli.config;

/**
 * httpd 2.4's configuration variables: {@code Define name [value]}, {@code UnDefine name} and
 * the {@code -D name} option, which {@code <IfDefine>} tests, and {@code ${name}} in a line,
 * replaced by a {@code Define}d value or else the environment variable of that name.
 *
 * <p>As in httpd: a line is expanded as it is read, before it is split into words, so a value
 * with blanks becomes several arguments unless the line quotes it ({@code "${root}"}); a value
 * is put in as it is, never expanded again; {@code ${name}} with no value is left as written,
 * with the warning {@code Config variable ${name} is not defined} (none for a name with a
 * {@code :}, which httpd keeps for other uses). Names defined for {@code <IfDefine>} are
 * case-sensitive; variable names are not (httpd keeps them in a case-blind table). A
 * {@code Define} without a value defines the name only: {@code ${name}} then falls back to the
 * environment.
 */
public final class ConfigVariables {
    private ConfigVariables() {
    }

    /**
     * The directives' actions: one enum class for both, as the other directive modules' (no
     * lambda, no constant-specific class bodies: each would be a class to load at start-up).
     */
    private enum D implements DirectiveTable.Action {
        DEFINE(true),
        UNDEFINE(false);

        private final boolean define;

        D(boolean define) {
            this.define = define;
        }

        @Override
        public void apply(ParseState st, ConfigLine l) throws ConfigException {
            String name = l.args().get(0);
            String problem = nameProblem(name);
            if (problem != null) {
                throw l.error(l.name() + ": " + problem);
            }
            if (define) {
                st.defines.add(name);
                if (l.args().size() == 2) {
                    st.variables.put(name, l.args().get(1));
                }
            } else {
                st.defines.remove(name);
                st.variables.remove(name);
            }
        }
    }

    /** Adds {@code Define} and {@code UnDefine} to {@code table}. */
    static void register(DirectiveTable table) {
        table.register("Define", 1, 2, DirectiveTable.SERVER, "parameter-name [parameter-value]", D.DEFINE);
        table.register("UnDefine", 1, 1, DirectiveTable.SERVER, "parameter-name", D.UNDEFINE);
    }

    /**
     * Why {@code name} cannot be defined (by {@code Define} or {@code -D}), or null when it can:
     * it must not be empty, and, as httpd's {@code Define} says, "Variable name must not contain ':'".
     */
    public static String nameProblem(String name) {
        if (name.isEmpty()) {
            return "the name is empty";
        }
        return name.indexOf(':') >= 0 ? "Variable name must not contain ':'" : null;
    }

    /**
     * {@code line} with every {@code ${name}} replaced (or, undefined, left and warned about).
     * The same {@link ConfigLexer.Line} when there is nothing to replace.
     */
    static ConfigLexer.Line expand(ParseState st, ConfigLexer.Line line) {
        String text = line.text();
        int dollar = text.indexOf("${");
        if (dollar < 0) {
            return line;
        }
        StringBuilder out = new StringBuilder(text.length() + 32);
        int done = 0;
        while (dollar >= 0) {
            int end = text.indexOf('}', dollar + 2);
            if (end < 0) {
                break;
            }
            String name = text.substring(dollar + 2, end);
            String value = st.variables.get(name);
            if (value == null) {
                value = st.environment.get(name);
            }
            out.append(text, done, dollar);
            if (value != null) {
                out.append(value);
            } else {
                if (name.indexOf(':') < 0) {
                    st.warn(line.source(), line.line(), "Config variable ${" + name + "} is not defined");
                }
                out.append(text, dollar, end + 1);
            }
            done = end + 1;
            dollar = text.indexOf("${", done);
        }
        out.append(text, done, text.length());
        return new ConfigLexer.Line(line.source(), line.line(), out.toString());
    }
}
