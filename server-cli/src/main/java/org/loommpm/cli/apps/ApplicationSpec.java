package org.loommpm.cli.apps;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.loommpm.api.Application;

/**
 * One {@code LoadApplication NAME CLASS [JAR]} line with its {@code ApplicationParam} lines: the
 * application found (its provider, not yet instantiated) when the configuration was read.
 *
 * @param name the handler name {@code SetHandler} uses, lower case
 * @param className the provider class named
 * @param jar the jar it was loaded from, or null (the jar's own class path)
 * @param jarStamp the jar's size and modification time when read ("" without a jar): a graceful
 *        restart re-creates an application whose jar was replaced
 * @param parameters its {@code ApplicationParam} values
 * @param provider the {@link ServiceLoader} provider found; {@link ServiceLoader.Provider#get}
 *        creates the instance
 * @param loader the class loader it was found with: the jar's own (closed when the application
 *        is not used) or the jar's class path
 */
public record ApplicationSpec(String name, String className, Path jar, String jarStamp, Map<String, String> parameters,
                              ServiceLoader.Provider<Application> provider, ClassLoader loader) {
    /**
     * Whether a running instance created from {@code other} can serve this line unchanged: same
     * name, class, jar (same size and time) and parameters.
     */
    public boolean sameAs(ApplicationSpec other) {
        return name.equals(other.name) && className.equals(other.className) && java.util.Objects.equals(jar, other.jar)
                && jarStamp.equals(other.jarStamp) && parameters.equals(other.parameters);
    }

    /** {@return the context given to {@link Application#routes}} */
    public Application.Context context() {
        return new Application.Context(name, parameters);
    }

    /** Closes a jar's own loader (not the jar's class path, which the server runs from). */
    public static void closeLoader(ClassLoader loader) {
        if (loader instanceof URLClassLoader u && loader != ApplicationSpec.class.getClassLoader()) {
            try {
                u.close();
            } catch (IOException e) {
                // Nothing was loaded from it that is still needed; its file handle goes with the GC.
            }
        }
    }
}
