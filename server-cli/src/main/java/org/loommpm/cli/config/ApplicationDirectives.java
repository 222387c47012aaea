package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import org.loommpm.api.Application;
import org.loommpm.cli.apps.ApplicationSpec;

/**
 * mod_so's {@code LoadModule} for applications: {@code LoadApplication NAME CLASS [JAR]} finds
 * the {@link Application} provider {@code CLASS} with {@link ServiceLoader}, in {@code JAR}
 * (resolved against {@code ServerRoot}, given its own class loader whose parent is the jar's) or
 * on the jar's class path, and registers {@code NAME} as a handler {@code SetHandler} may name;
 * {@code ApplicationParam NAME key value} passes settings to it. The class is found, not
 * instantiated, when the configuration is read, so {@code -t} reports a missing one (LM2400);
 * {@code cli.apps.ApplicationHost} creates the instance when the server starts.
 */
public final class ApplicationDirectives {
    /** The key of this module's state in {@link LoomConfig#extensions()}. */
    static final String KEY = "applications";
    /** Compiled on the first {@code LoadApplication}, not by the start of every configuration. */
    private static final class Name {
        static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_.-]*");
    }

    /** This module's parse state: the applications by name, in file order. */
    static final class Settings {
        final Map<String, Loaded> byName = new LinkedHashMap<>();
    }

    /** One {@code LoadApplication} line read so far. */
    private record Loaded(ConfigLine line, String className, Path jar, String stamp,
                          ServiceLoader.Provider<Application> provider, ClassLoader loader,
                          Map<String, String> params) {
    }

    private ApplicationDirectives() {
    }

    /** The directives; an enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        LOAD_APPLICATION,
        APPLICATION_PARAM;

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Settings st = s.extension(KEY, Settings::new);
            switch (this) {
                case LOAD_APPLICATION -> load(s, st, l);
                case APPLICATION_PARAM -> {
                    String name = l.args().get(0).toLowerCase(Locale.ROOT);
                    Loaded a = st.byName.get(name);
                    if (a == null) {
                        throw l.error("ApplicationParam: no application '" + l.args().get(0)
                                + "' was loaded before this line (LoadApplication NAME CLASS [JAR])");
                    }
                    a.params.put(l.args().get(1), l.args().get(2));
                }
            }
        }
    }

    static void register(DirectiveTable t) {
        t.register("LoadApplication", 2, 3, SERVER, "name class [path/to/app.jar]", D.LOAD_APPLICATION);
        t.register("ApplicationParam", 3, 3, SERVER, "name key value", D.APPLICATION_PARAM);
    }

    /** Whether {@code handler} (lower case) names an application loaded so far. */
    static boolean loaded(ParseState s, String handler) {
        return s.extension(KEY, Settings::new).byName.containsKey(handler);
    }

    /** The names loaded so far, for a message. */
    static List<String> names(ParseState s) {
        return List.copyOf(s.extension(KEY, Settings::new).byName.keySet());
    }

    /** The applications a configuration loads, in file order. */
    public static List<ApplicationSpec> of(LoomConfig config) {
        if (!(config.extensions().get(KEY) instanceof Settings st)) {
            return List.of();
        }
        List<ApplicationSpec> out = new ArrayList<>();
        st.byName.forEach((name, a) -> out.add(new ApplicationSpec(name, a.className, a.jar, a.stamp,
                Map.copyOf(a.params), a.provider, a.loader)));
        return out;
    }

    private static void load(ParseState s, Settings st, ConfigLine l) throws ConfigException {
        String name = l.args().get(0).toLowerCase(Locale.ROOT);
        if (!Name.NAME.matcher(name).matches()) {
            throw l.error("LoadApplication: '" + l.args().get(0) + "' is not a handler name (letters, digits, _ . -)");
        }
        if (SiteDirectives.HANDLERS.contains(name) || name.equals("proxy")) {
            throw l.error("LoadApplication: '" + name + "' is a built-in handler name; choose another");
        }
        if (st.byName.containsKey(name)) {
            throw l.error("LoadApplication: '" + name + "' is already loaded (line "
                    + st.byName.get(name).line.line() + ")");
        }
        String className = l.args().get(1);
        Path jar = null;
        String stamp = "";
        ClassLoader parent = ApplicationDirectives.class.getClassLoader();
        ClassLoader loader = parent;
        if (l.args().size() == 3) {
            jar = s.resolve(l.args().get(2));
            if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
                throw l.error("LM2400 LoadApplication " + name + ": cannot read the jar '" + jar + "'");
            }
            try {
                stamp = Files.size(jar) + "@" + Files.getLastModifiedTime(jar).toMillis();
                loader = new URLClassLoader("app-" + name, new URL[] {jar.toUri().toURL()}, parent);
            } catch (IOException e) {
                throw l.error("LM2400 LoadApplication " + name + ": cannot read the jar '" + jar + "': " + e);
            }
        }
        ServiceLoader.Provider<Application> found = find(l, name, className, jar, loader);
        st.byName.put(name, new Loaded(l, className, jar, stamp, found, loader, new LinkedHashMap<>()));
    }

    /** The provider named {@code className}, or a precise error saying why there is none. */
    private static ServiceLoader.Provider<Application> find(ConfigLine l, String name, String className, Path jar,
                                                            ClassLoader loader) throws ConfigException {
        String where = jar != null ? "in " + jar : "on the class path";
        List<String> declared = new ArrayList<>();
        try {
            for (ServiceLoader.Provider<Application> p : ServiceLoader.load(Application.class, loader).stream().toList()) {
                if (p.type().getName().equals(className)) {
                    return p;
                }
                declared.add(p.type().getName());
            }
        } catch (ServiceConfigurationError e) {
            ApplicationSpec.closeLoader(loader);
            throw l.error("LM2400 LoadApplication " + name + ": a declared application " + where
                    + " cannot be loaded: " + e.getMessage());
        }
        String why;
        try {
            Class<?> c = Class.forName(className, false, loader);
            why = Application.class.isAssignableFrom(c)
                    ? "class " + className + " is not declared as a service (add it to "
                            + "META-INF/services/org.loommpm.api.Application, or `provides` on the module path)"
                    : "class " + className + " does not implement org.loommpm.api.Application";
        } catch (ClassNotFoundException | LinkageError e) {
            why = "class " + className + " not found " + where;
        }
        ApplicationSpec.closeLoader(loader);
        throw l.error("LM2400 LoadApplication " + name + ": " + why
                + (declared.isEmpty() ? "" : " (applications declared there: " + String.join(", ", declared) + ")"));
    }

    /**
     * Closes the jar loaders of every application a configuration names: for a process that only
     * checked them (the {@code ChildProcesses} supervisor; its children load their own).
     */
    public static void closeLoaders(LoomConfig config) {
        for (ApplicationSpec a : of(config)) {
            ApplicationSpec.closeLoader(a.loader());
        }
    }

    /** Closes the jar loaders of the applications read so far by a parse that failed. */
    static void closeLoaders(ParseState s) {
        for (Loaded a : s.extension(KEY, Settings::new).byName.values()) {
            ApplicationSpec.closeLoader(a.loader);
        }
    }
}
