package org.loommpm.cli.signals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pid file's life (written, stale, removed only while it is ours) and {@code -k}'s answers
 * for each state of it. Processes signalled here are {@code sleep}s this test starts.
 */
class PidFileTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int control(ServerControl.Command c, Path pid) {
        return ServerControl.run(c, pid, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A process id that ran a moment ago and runs no more. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return p.pid();
    }

    @Test
    void writtenReadAndRemoved() throws Exception {
        PidFile f = new PidFile(dir.resolve("loom.pid"));
        assertFalse(f.read().exists());
        f.write();
        assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(f.path()));
        PidFile.Status s = f.read();
        assertEquals(ProcessHandle.current().pid(), s.pid());
        assertFalse(s.running(), "this process is never 'another one running'");
        f.remove();
        assertFalse(Files.exists(f.path()));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "no temporary file left");
        }
    }

    @Test
    void aStaleFileIsOverwritten() throws Exception {
        PidFile f = new PidFile(dir.resolve("loom.pid"));
        long dead = deadPid();
        Files.writeString(f.path(), dead + "\n");
        assertEquals(new PidFile.Status(dead, false), f.read());
        f.write();
        assertEquals(ProcessHandle.current().pid(), f.read().pid());
    }

    @Test
    void removeLeavesAnotherServersFile() throws Exception {
        PidFile f = new PidFile(dir.resolve("loom.pid"));
        Files.writeString(f.path(), "1\n");
        f.remove();
        assertEquals("1\n", Files.readString(f.path()));
    }

    @Test
    void aCorruptFileIsAnError() throws Exception {
        Path p = dir.resolve("loom.pid");
        Files.writeString(p, "not a pid\n");
        assertThrows(IOException.class, () -> new PidFile(p).read());
        assertEquals(1, control(ServerControl.Command.STOP, p));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("does not hold a process id"));
    }

    @Test
    void controlWithoutAPidFile() {
        assertEquals(ServerControl.START, control(ServerControl.Command.START, null));
        assertEquals(1, control(ServerControl.Command.STOP, null));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("needs a PidFile"));
    }

    @Test
    void controlWhenNoneRuns() throws Exception {
        Path p = dir.resolve("loom.pid");
        assertEquals(0, control(ServerControl.Command.STOP, p));
        assertTrue(out().contains("loom-mpm (no pid file) not running"), out());
        assertEquals(ServerControl.START, control(ServerControl.Command.START, p));
        long dead = deadPid();
        Files.writeString(p, dead + "\n");
        assertEquals(0, control(ServerControl.Command.GRACEFUL_STOP, p));
        assertTrue(out().contains("loom-mpm (pid " + dead + "?) not running"), out());
        assertEquals(ServerControl.START, control(ServerControl.Command.GRACEFUL, p));
        assertEquals(ServerControl.START, control(ServerControl.Command.RESTART, p));
        assertTrue(out().contains("not running, trying to start"), out());
    }

    @Test
    void controlSignalsTheProcessItNames() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            Path p = dir.resolve("loom.pid");
            Files.writeString(p, sleeper.pid() + "\n");
            assertEquals(0, control(ServerControl.Command.START, p));
            assertTrue(out().contains("loom-mpm (pid " + sleeper.pid() + ") already running"), out());
            assertTrue(sleeper.isAlive());
            assertEquals(0, control(ServerControl.Command.STOP, p)); // SIGTERM ends sleep
            assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS));
            assertEquals(128 + 15, sleeper.exitValue());
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void commandsParseAsHttpdSpellsThem() {
        for (ServerControl.Command c : ServerControl.Command.values()) {
            assertEquals(c, ServerControl.Command.parse(c.argument()));
        }
        assertEquals("graceful-stop", ServerControl.Command.GRACEFUL_STOP.argument());
        assertThrows(IllegalArgumentException.class, () -> ServerControl.Command.parse("reload"));
    }
}
