package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.apps.ApplicationHost;
import org.loommpm.cli.it.app.DemoApplication;

/**
 * A {@code LoadApplication} jar's class loader holds the jar open; a configuration or a
 * generation that fails after the jar was opened must close it, or each refused {@code SIGHUP}
 * leaks a loader and a file handle; an application a restart dropped is closed even when the
 * process stops before its retirement. The jar being open is read from {@code /proc/self/fd}
 * (Linux), the handle the leak keeps.
 */
class ApplicationLoaderLeakTest {
    private static final String DEMO = DemoApplication.class.getName();

    @TempDir
    Path dir;

    /** A jar that declares {@link DemoApplication} (found through it, loaded from the test class path). */
    private Path jar(String name) throws IOException {
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/services/org.loommpm.api.Application"));
            out.write((DEMO + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return jar;
    }

    private static boolean open(Path jar) throws IOException {
        Path real = jar.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException | UnsupportedOperationException e) {
                    return false; // the descriptor closed while listed
                }
            });
        }
    }

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    @Test
    void aConfigurationFailingAfterLoadApplicationClosesTheJar() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        Path jar = jar("a.jar");
        LoomConfig ok = parse("LoadApplication demo " + DEMO + " a.jar\n");
        assertTrue(open(jar), "a loaded application's loader holds its jar");
        ApplicationDirectives.closeLoaders(ok);
        assertFalse(open(jar));

        assertThrows(ConfigException.class, () -> parse("LoadApplication demo " + DEMO + " a.jar\nNoSuchDirective 1\n"));
        assertFalse(open(jar), "the refused configuration's loader is closed");
    }

    @Test
    void aGenerationFailingToStartClosesEveryJarItOpened() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        Path before = jar("before.jar");
        Path after = jar("after.jar");
        LoomConfig c = parse("LoadApplication one " + DEMO + " before.jar\n"
                + "LoadApplication two " + DEMO + "\nApplicationParam two fail yes\n"
                + "LoadApplication three " + DEMO + " after.jar\n");
        assertTrue(open(before) && open(after));
        ApplicationHost host = new ApplicationHost();
        assertThrows(ApplicationHost.ApplicationException.class, () -> host.prepare(ApplicationDirectives.of(c)));
        assertFalse(open(before), "the application created before the failure is closed, with its loader");
        assertFalse(open(after), "the line after the failure was never reached: its loader is closed too");
    }

    @Test
    void aStopBeforeTheRetirementClosesTheDroppedApplication() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        Path jar = jar("dropped.jar");
        ApplicationHost host = new ApplicationHost();
        ApplicationHost.Change first = host.prepare(ApplicationDirectives.of(
                parse("LoadApplication demo " + DEMO + " dropped.jar\n")));
        first.commit();
        ApplicationHost.Change second = host.prepare(ApplicationDirectives.of(parse("Listen 127.0.0.1:9101\n")));
        second.commit();
        assertTrue(second.dropsAny());
        assertTrue(open(jar), "the dropped application serves the old generation until it is retired");
        host.closeAll(); // the process stops within the grace time: the retirement has not run
        assertFalse(open(jar), "the stop closed the application the restart dropped");
        second.retire(); // the retiring thread, late: nothing left to close
        assertFalse(open(jar));
    }
}
