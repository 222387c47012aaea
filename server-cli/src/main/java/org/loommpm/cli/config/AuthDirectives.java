package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.LOCATION;

import java.nio.file.Path;
import java.util.Locale;
import org.loommpm.auth.AuthFileException;
import org.loommpm.auth.GroupFile;
import org.loommpm.auth.PasswordFile;
import org.loommpm.cli.access.AuthConfig;

/**
 * mod_auth_basic, mod_authn_file and mod_authz_groupfile inside a {@code <Location>}:
 * {@code AuthType Basic|None}, {@code AuthName}, {@code AuthBasicProvider file},
 * {@code AuthUserFile}, {@code AuthGroupFile}, {@code AuthzSendForbiddenOnFailure}. The files are
 * read here, so {@code -t} reports a missing file or a hash of no known form with its file and
 * line; a file named by several sections is read once and shared.
 */
final class AuthDirectives {
    private AuthDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        AUTH_TYPE("AuthType", 1, 1, "Basic|None"),
        AUTH_NAME("AuthName", 1, 1, "realm"),
        AUTH_BASIC_PROVIDER("AuthBasicProvider", 1, Integer.MAX_VALUE, "file"),
        AUTH_USER_FILE("AuthUserFile", 1, 1, "file"),
        AUTH_GROUP_FILE("AuthGroupFile", 1, 1, "file"),
        AUTHZ_SEND_FORBIDDEN_ON_FAILURE("AuthzSendForbiddenOnFailure", 1, 1, "On|Off");

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, LOCATION, syntax);
        }

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            ParseState.OpenLocation o = s.location;
            String arg = l.args().get(0);
            switch (this) {
                case AUTH_TYPE -> o.auth = o.auth.then(new AuthConfig(authType(l, arg), null, null, null, null));
                case AUTH_NAME -> o.auth = o.auth.then(new AuthConfig(null, arg, null, null, null));
                case AUTH_BASIC_PROVIDER -> {
                    for (String p : l.args()) {
                        if (!p.equalsIgnoreCase("file")) {
                            throw l.error("AuthBasicProvider: only 'file' (AuthUserFile) is available, not '" + p + "'");
                        }
                    }
                }
                case AUTH_USER_FILE -> o.auth = o.auth.then(new AuthConfig(null, null, users(s, l, s.resolve(arg)), null, null));
                case AUTH_GROUP_FILE -> o.auth = o.auth.then(new AuthConfig(null, null, null, groups(s, l, s.resolve(arg)), null));
                case AUTHZ_SEND_FORBIDDEN_ON_FAILURE -> o.auth = o.auth.then(new AuthConfig(null, null, null, null, Args.onOff(l)));
            }
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }

    private static Boolean authType(ConfigLine l, String arg) throws ConfigException {
        return switch (arg.toLowerCase(Locale.ROOT)) {
            case "basic" -> Boolean.TRUE;
            case "none" -> Boolean.FALSE;
            case "digest", "form" -> throw l.error("AuthType " + arg + " is not available (mod_auth_" + arg.toLowerCase(Locale.ROOT)
                    + "): use AuthType Basic over TLS");
            default -> throw l.error("AuthType takes Basic or None, got '" + arg + "'");
        };
    }

    private static PasswordFile users(ParseState s, ConfigLine l, Path file) throws ConfigException {
        PasswordFile f = s.passwordFiles.get(file);
        if (f == null) {
            try {
                f = PasswordFile.open(file);
            } catch (AuthFileException e) {
                throw l.error("AuthUserFile " + e.getMessage());
            }
            s.passwordFiles.put(file, f);
        }
        return f;
    }

    private static GroupFile groups(ParseState s, ConfigLine l, Path file) throws ConfigException {
        GroupFile f = s.groupFiles.get(file);
        if (f == null) {
            try {
                f = GroupFile.open(file);
            } catch (AuthFileException e) {
                throw l.error("AuthGroupFile " + e.getMessage());
            }
            s.groupFiles.put(file, f);
        }
        return f;
    }
}
