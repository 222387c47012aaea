package org.loommpm.api;

import java.util.Map;
import java.util.Objects;

/**
 * An application the jar ({@code loom-mpm.jar}) serves: the service its {@code LoadApplication}
 * directive names, found with {@link java.util.ServiceLoader}. An embedded server builds its
 * {@link Router} itself; the jar gives one to {@link #routes} and serves it under the
 * {@code <Location>} sections that say {@code SetHandler NAME}, after their {@code Require}
 * rules, so a WebSocket upgrade a rule refuses gets its 403 before any upgrade.
 *
 * <p>Providing one: implement this interface with a public no-argument constructor and declare
 * it, on the class path in {@code META-INF/services/org.loommpm.api.Application}, on the module
 * path with {@code provides org.loommpm.api.Application with ...}. The same class serves
 * embedded too: {@code var r = new Router(); app.routes(r, Application.Context.of("app"));
 * LoomServer.builder().handler(r)...}.
 *
 * <p>Lifecycle: the jar creates one instance per process (every {@code ChildProcesses} child
 * process creates its own: they share no memory), calls {@link #routes} once, before the server
 * serves, and {@link #close} after the process stopped serving it. A graceful restart
 * ({@code SIGHUP}) keeps the instance and its routes (and whatever state it holds) when the
 * {@code LoadApplication} line is unchanged; the retiring generation's connections still end as
 * in any graceful restart (its WebSockets are closed with 1001), and their clients reconnect to
 * the same instance. An application whose line changed or went away is closed once the old
 * generation's requests had time to finish.
 *
 * <p>Threads: {@code routes} runs on the jar's main thread, and so does {@code close} at a stop;
 * an application a graceful restart dropped is closed on a virtual thread of its own
 * ({@code loom-app-retire}) once the old generation had its time. The handlers it registers run
 * on virtual-thread workers, concurrently.
 */
public interface Application {
    /**
     * Adds the application's routes, filters and WebSocket endpoints. The routes match the
     * whole request path, as an httpd handler sees the whole URI: an application mounted at
     * {@code <Location /chat>} registers {@code /chat/...} templates.
     *
     * @param router an empty router, served once this returns
     * @param context the name it was loaded under and its {@code ApplicationParam} values
     * @throws Exception if the application cannot start: the process does not serve (LM2402)
     */
    void routes(Router router, Context context) throws Exception;

    /**
     * Releases what {@link #routes} acquired (pools, timers, files). Called once, after the
     * last generation serving the application stopped; the default does nothing.
     *
     * @throws Exception logged (LM2404); the process goes on stopping
     */
    default void close() throws Exception {
    }

    /**
     * What the jar tells an application about how it was loaded.
     *
     * @param name the name given in {@code LoadApplication NAME ...} (also its {@code SetHandler} name)
     * @param parameters {@code ApplicationParam NAME key value} lines, by key (a later line wins)
     */
    record Context(String name, Map<String, String> parameters) {
        /** Copies the parameters. */
        public Context {
            Objects.requireNonNull(name, "name");
            parameters = Map.copyOf(parameters);
        }

        /**
         * {@return a context without parameters}, for an embedding that calls {@link #routes} itself
         *
         * @param name the application's name
         */
        public static Context of(String name) {
            return new Context(name, Map.of());
        }

        /**
         * {@return the parameter's value, or {@code fallback} when not given}
         *
         * @param key the parameter's key
         * @param fallback the value when the configuration does not set it
         */
        public String parameter(String key, String fallback) {
            return parameters.getOrDefault(key, fallback);
        }
    }
}
