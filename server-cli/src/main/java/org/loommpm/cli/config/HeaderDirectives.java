package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import org.loommpm.cli.headers.HeaderRule;
import org.loommpm.cli.headers.HeaderScopes;

/**
 * mod_headers' {@code Header} and {@code RequestHeader}, in the subset {@link HeaderRule}
 * parses: literal values, no {@code edit}, {@code echo}, {@code note}, {@code early},
 * {@code env=} or {@code expr=}, and no change to framing or connection fields; what is not
 * supported is a configuration error, never ignored. Valid at the server level and in
 * {@code <Location>} sections, kept by scope as {@link HeaderScopes} under
 * {@link HeaderScopes#KEY} in the parse state (absent when no such line is read).
 */
final class HeaderDirectives {
    private HeaderDirectives() {
    }

    /** The two directives; an enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        HEADER("Header", false,
                "[always|onsuccess] set|append|merge|add|setifempty header value, or [always|onsuccess] unset header"),
        REQUEST_HEADER("RequestHeader", true, "set|append|merge|add|setifempty header value, or unset header");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            HeaderRule rule;
            try {
                rule = HeaderRule.parse(l.args(), request);
            } catch (IllegalArgumentException e) {
                throw l.error(l.name() + ": " + e.getMessage());
            }
            s.extension(HeaderScopes.KEY, HeaderScopes::new).add(s.locationPath(), s.location, rule, request);
        }

        final DirectiveSpec spec;
        final boolean request;

        D(String name, boolean request, String syntax) {
            spec = new DirectiveSpec(name, 2, Integer.MAX_VALUE, SERVER_OR_LOCATION, syntax);
            this.request = request;
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
