package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.nio.file.Files;
import java.nio.file.Path;
import org.loommpm.cli.logging.AccessLogFormat;
import org.loommpm.cli.logging.LogLevels;
import org.loommpm.cli.logging.LogSettings;

/** {@code ErrorLog}, {@code LogLevel}, {@code LogFormat}, {@code CustomLog}. */
final class LogDirectives {
    private LogDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        ERROR_LOG("ErrorLog", 1, 1, "file"),
        LOG_LEVEL("LogLevel", 1, Integer.MAX_VALUE, "[module:]level ..."),
        LOG_FORMAT("LogFormat", 1, 2, "format [nickname]"),
        CUSTOM_LOG("CustomLog", 2, 2, "file format|nickname");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            switch (this) {
                case ERROR_LOG -> s.errorLog = target(s, l, l.args().get(0));
                case LOG_LEVEL -> logLevel(s, l);
                case LOG_FORMAT -> logFormat(s, l);
                case CUSTOM_LOG -> customLog(s, l);
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, SERVER, syntax);
        }
    }

    /** A log destination: the standard streams by name, else a file whose directory must exist. */
    private static String target(ParseState s, ConfigLine l, String arg) throws ConfigException {
        if (arg.equals("/dev/stdout") || arg.equals("/dev/stderr")) {
            return arg;
        }
        if (arg.startsWith("|")) {
            throw l.error(l.name() + ": piped logs are not supported; write to a file or /dev/stdout");
        }
        Path p = s.resolve(arg);
        Path dir = p.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw l.error(l.name() + ": directory of '" + p + "' does not exist");
        }
        if (Files.isDirectory(p)) {
            throw l.error(l.name() + ": '" + p + "' is a directory");
        }
        return p.toString();
    }

    private static void logLevel(ParseState s, ConfigLine l) throws ConfigException {
        try {
            s.levels = LogLevels.parse(s.levels, l.args());
        } catch (IllegalArgumentException e) {
            throw l.error(e.getMessage());
        }
    }

    private static void logFormat(ParseState s, ConfigLine l) throws ConfigException {
        String format = l.args().get(0);
        compile(l, format);
        String nick = l.args().size() == 2 ? l.args().get(1) : "default";
        if (nick.indexOf('%') >= 0) {
            throw l.error("LogFormat: the nickname '" + nick + "' cannot contain '%'");
        }
        s.formats.put(nick, format);
    }

    private static void customLog(ParseState s, ConfigLine l) throws ConfigException {
        String target = target(s, l, l.args().get(0));
        String f = l.args().get(1);
        String format = f.indexOf('%') >= 0 ? f : s.formats.get(f);
        if (format == null) {
            throw l.error("CustomLog: no LogFormat named '" + f + "' (and it has no % codes)");
        }
        compile(l, format);
        s.accessLogs.add(new LogSettings.AccessLogSpec(target, format));
    }

    private static void compile(ConfigLine l, String format) throws ConfigException {
        try {
            AccessLogFormat.compile(format);
        } catch (IllegalArgumentException e) {
            throw l.error(l.name() + ": " + e.getMessage());
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
