package org.loommpm.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Loads the classes reading the configuration, the engine's start and the first request will need
 * on a thread of its own ({@code loom-preload}), ahead of the main thread: on a second core, the
 * main thread then finds most of them defined instead of reading and parsing each from the jar
 * itself (about 0.2 ms apiece before the JIT has compiled the class loader). Where both ask for the
 * same class at once, the one that came second waits for the other's definition; the main thread
 * meanwhile runs the directives' and the engine's code, which this thread does not.
 *
 * <p>The list is the resource {@value #RESOURCE} beside this class: the classes from the jar that
 * a start with the embedded default loads once this thread is started, up to its first answered
 * {@code GET /}, in the order they loaded. {@code StartupClassesIT} checks it against a
 * training run and writes a fresh one to {@code target/} when it has drifted.
 *
 * <p>Loading only: {@code Class.forName(name, false, loader)} defines a class but neither links nor
 * initializes it, so no static initializer runs on this thread and none can deadlock with one on
 * the main thread. The application class loader is parallel capable: a main thread asking for a
 * class this thread is defining waits for it rather than defining it twice. A name the jar does
 * not have (a stale list) is skipped; the main thread loads what it needs either way.
 *
 * <p>Off with {@code -D}{@value #SWITCH}{@code =false}, which the training run uses: its class-load
 * log must show what the start needs, not what this list says.
 */
final class StartupClasses implements Runnable {
    /** The list's resource name, relative to this class. */
    static final String RESOURCE = "startup-classes.txt";
    /** The system property that turns preloading off when {@code false}. */
    static final String SWITCH = "loom.preloadClasses";

    private StartupClasses() {
    }

    /** Starts the preloading thread unless {@value #SWITCH} is {@code false}. */
    static void start() {
        if (!"false".equals(System.getProperty(SWITCH))) {
            Thread.ofPlatform().daemon().name("loom-preload").start(new StartupClasses());
        }
    }

    @Override
    public void run() {
        ClassLoader loader = StartupClasses.class.getClassLoader();
        try (InputStream in = StartupClasses.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String name = lines.readLine(); name != null; name = lines.readLine()) {
                if (!name.isEmpty() && name.charAt(0) != '#') {
                    load(name, loader);
                }
            }
        } catch (IOException e) {
            // An unreadable jar fails the main thread's own loading, which reports it.
        }
    }

    private static void load(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            // A stale line: the main thread loads (and reports) what it actually needs.
        }
    }
}
