package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import org.loommpm.cli.expires.ExpiresCode;
import org.loommpm.cli.expires.ExpiresScopes;

/**
 * mod_expires' {@code ExpiresActive}, {@code ExpiresByType} and {@code ExpiresDefault}, at the
 * server level and in {@code <Location>} sections, kept by scope as {@link ExpiresScopes} under
 * {@link ExpiresScopes#KEY} in the parse state (absent when no such line is read). A bad code is
 * refused with httpd's message.
 */
final class ExpiresDirectives {
    private ExpiresDirectives() {
    }

    /** The directives; an enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        EXPIRES_ACTIVE("ExpiresActive", 1, "On|Off"),
        EXPIRES_BY_TYPE("ExpiresByType", 2, "media-type code"),
        EXPIRES_DEFAULT("ExpiresDefault", 1, "code");

        final DirectiveSpec spec;

        D(String name, int args, String syntax) {
            spec = new DirectiveSpec(name, args, args, SERVER_OR_LOCATION, syntax);
        }

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            ExpiresScopes scopes = s.extension(ExpiresScopes.KEY, ExpiresScopes::new);
            switch (this) {
                case EXPIRES_ACTIVE -> scopes.active(s.locationPath(), s.location, Args.onOff(l));
                case EXPIRES_DEFAULT -> scopes.fallback(s.locationPath(), s.location, code(l, l.args().get(0)));
                case EXPIRES_BY_TYPE -> {
                    String type = l.args().get(0);
                    if (type.indexOf('/') < 0) {
                        throw l.error("ExpiresByType: Invalid mimetype: should contain a slash");
                    }
                    scopes.byType(s.locationPath(), s.location, type, code(l, l.args().get(1)));
                }
            }
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }

    private static ExpiresCode code(ConfigLine l, String code) throws ConfigException {
        try {
            return ExpiresCode.parse(code);
        } catch (IllegalArgumentException e) {
            throw l.error("'" + l.name() + " " + String.join(" ", l.args()) + "': " + e.getMessage());
        }
    }
}
