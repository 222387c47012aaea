package org.loommpm.cli.apps;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.loommpm.api.Application;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;

/**
 * The applications one process serves ({@code LoadApplication}): creates each one and its
 * {@link Router} when a generation starts, keeps an unchanged one across graceful restarts (the
 * new generation serves the same instance and routes), and closes the ones a restart dropped once the old
 * generation is done with them.
 *
 * <p>Threads: confined to the process's main thread (start, {@code SIGHUP}, stop), except
 * {@link Change#retire}, which a retiring thread runs once the change is committed.
 */
public final class ApplicationHost {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    /** A running application: its line, its instance, its frozen routes. */
    private record Running(ApplicationSpec spec, Application app, Router router) {
    }

    /** What serves now, by name. */
    private Map<String, Running> running = Map.of();
    /**
     * Applications a committed generation dropped and not closed yet: {@link Change#retire}
     * (the retiring thread) or {@link #closeAll} (a stop before that) removes each, and whoever
     * removes it closes it, so each is closed exactly once.
     */
    private final Set<Running> retiring = ConcurrentHashMap.newKeySet();

    /**
     * A generation's applications, prepared but not yet serving: {@link #commit} once the
     * generation serves, {@link #rollback} if it could not start.
     */
    public final class Change {
        private final Map<String, Running> next;
        private final List<Running> created;
        private final List<Running> dropped;
        private final List<ApplicationSpec> unused;

        private Change(Map<String, Running> next, List<Running> created, List<Running> dropped,
                       List<ApplicationSpec> unused) {
            this.next = next;
            this.created = created;
            this.dropped = dropped;
            this.unused = unused;
        }

        /** {@return the handlers {@code SetHandler NAME} calls, by name} */
        public Map<String, Handler> handlers() {
            Map<String, Handler> out = new HashMap<>();
            for (Map.Entry<String, Running> e : next.entrySet()) {
                out.put(e.getKey(), e.getValue().router);
            }
            return out;
        }

        /** The generation serves: these applications are the running ones now. */
        public void commit() {
            running = next;
            retiring.addAll(dropped);
            for (ApplicationSpec s : unused) {
                ApplicationSpec.closeLoader(s.loader());
            }
        }

        /** The generation did not start: closes what this change created; the running ones stay. */
        public void rollback() {
            created.forEach(ApplicationHost::close);
            unused.forEach(s -> ApplicationSpec.closeLoader(s.loader()));
        }

        /** Closes the applications the committed generation dropped; run once the old one is done. */
        public void retire() {
            for (Running r : dropped) {
                if (retiring.remove(r)) {
                    close(r);
                }
            }
        }

        /** Whether the committed generation dropped any application (so {@link #retire} has work). */
        public boolean dropsAny() {
            return !dropped.isEmpty();
        }
    }

    /**
     * Prepares the applications of a new generation: an unchanged line keeps its running
     * instance, any other is created and given its routes now.
     *
     * @throws ApplicationException if one cannot be created or its {@code routes} throws (LM2402);
     *     what was created before it is closed, and every jar loader of {@code specs} that no
     *     running application uses
     */
    public Change prepare(List<ApplicationSpec> specs) throws ApplicationException {
        Map<String, Running> next = new LinkedHashMap<>();
        List<Running> created = new ArrayList<>();
        List<ApplicationSpec> unused = new ArrayList<>();
        for (ApplicationSpec spec : specs) {
            Running old = running.get(spec.name());
            if (old != null && old.spec.sameAs(spec)) {
                next.put(spec.name(), old);
                if (spec.loader() != old.spec.loader()) {
                    unused.add(spec);
                }
                continue;
            }
            Running r;
            try {
                r = create(spec);
            } catch (Exception | java.util.ServiceConfigurationError | LinkageError e) {
                created.forEach(ApplicationHost::close);
                closeLoadersNotRunning(specs);
                throw new ApplicationException("LM2402 application " + spec.name() + " (" + spec.className()
                        + ") could not start: " + e, e);
            }
            created.add(r);
            next.put(spec.name(), r);
        }
        List<Running> dropped = new ArrayList<>();
        for (Running r : running.values()) {
            if (!next.containsValue(r)) {
                dropped.add(r);
            }
        }
        return new Change(next, created, dropped, unused);
    }

    /**
     * Closes the jar loaders of {@code specs} that no running application uses: the failing
     * line's, the unchanged lines' fresh ones, and those of the lines after the failure, which
     * were never reached (their jars would otherwise stay open until the process ends).
     */
    private void closeLoadersNotRunning(List<ApplicationSpec> specs) {
        for (ApplicationSpec s : specs) {
            boolean inUse = false;
            for (Running r : running.values()) {
                inUse |= r.spec.loader() == s.loader();
            }
            if (!inUse) {
                ApplicationSpec.closeLoader(s.loader());
            }
        }
    }

    private static Running create(ApplicationSpec spec) throws Exception {
        Application app = spec.provider().get();
        Router router = new Router();
        try {
            app.routes(router, spec.context());
        } catch (Exception e) {
            closeQuietly(spec, app);
            throw e;
        }
        LOG.log(Level.INFO, "LM2401 application {0} ({1}{2}) loaded", spec.name(), spec.className(),
                spec.jar() != null ? " from " + spec.jar() : "");
        return new Running(spec, app, router);
    }

    /** Closes every running application, and those a restart dropped not closed yet (the process stopped serving). */
    public void closeAll() {
        running.values().forEach(ApplicationHost::close);
        running = Map.of();
        for (Running r : List.copyOf(retiring)) {
            if (retiring.remove(r)) {
                close(r);
            }
        }
    }

    private static void close(Running r) {
        closeQuietly(r.spec, r.app);
        LOG.log(Level.INFO, "LM2403 application {0} closed", r.spec.name());
    }

    private static void closeQuietly(ApplicationSpec spec, Application app) {
        try {
            app.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "LM2404 application {0} failed to close: {1}", spec.name(), e.toString());
        }
        ApplicationSpec.closeLoader(spec.loader());
    }

    /** An application that could not start; its message carries LM2402. */
    public static final class ApplicationException extends Exception {
        private static final long serialVersionUID = 1L;

        ApplicationException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
