package org.loommpm.cli.children;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.config.ChildDirectives;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.cli.config.ConfigParser;
import org.loommpm.cli.config.DirectiveTable;
import org.loommpm.cli.config.LoomConfig;

/** {@code ChildProcesses On|Off} in the configuration file. */
class ChildDirectivesTest {
    private static LoomConfig parse(String text) throws ConfigException {
        return new ConfigParser(DirectiveTable.standard()).parse(new ConfigParser.Source(null, text, List.of(), List.of()));
    }

    @Test
    void offByDefaultOnWhenAsked() throws Exception {
        assertFalse(ChildDirectives.enabled(parse("Listen 8080\n")));
        assertTrue(ChildDirectives.enabled(parse("Listen 8080\nChildProcesses On\n")));
        assertFalse(ChildDirectives.enabled(parse("Listen 8080\nchildprocesses on\nChildProcesses Off\n")));
    }

    @Test
    void anythingButOnOrOffIsAnError() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("ChildProcesses yes\n"));
        assertTrue(e.report().contains("line 1"), e.report());
        assertThrows(ConfigException.class, () -> parse("<Location /x>\nChildProcesses On\n</Location>\n"));
    }

    @Test
    void childProcessesNeedFixedPorts() throws Exception {
        IOException e = assertThrows(IOException.class,
                () -> ProcessSupervisor.check(parse("Listen 127.0.0.1:0\nChildProcesses On\n").engine()));
        assertTrue(e.getMessage().contains("port 0"), e.getMessage());
        ProcessSupervisor.check(parse("Listen 127.0.0.1:8080\nChildProcesses On\n").engine());
    }

    @Test
    void scoreboardsOfSupervisorsThatAreGoneAreRemoved(@TempDir Path tmp)
            throws Exception {
        long alive = ProcessHandle.current().pid();
        Path mine = Files.createFile(tmp.resolve("loom-mpm-" + alive + "-1.scoreboard"));
        // PIDs never go this high on Linux (pid_max is at most 2^22).
        Path gone = Files.createFile(tmp.resolve("loom-mpm-999999999-2.scoreboard"));
        Path other = Files.createFile(tmp.resolve("loom-mpm-x-3.scoreboard"));
        ProcessSupervisor.removeStaleScoreboards(tmp);
        assertTrue(Files.exists(mine));
        assertFalse(Files.exists(gone));
        assertTrue(Files.exists(other));
    }
}
