package org.loommpm.cli.children;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
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
        java.io.IOException e = assertThrows(java.io.IOException.class,
                () -> ProcessSupervisor.check(parse("Listen 127.0.0.1:0\nChildProcesses On\n")));
        assertTrue(e.getMessage().contains("port 0"), e.getMessage());
        ProcessSupervisor.check(parse("Listen 127.0.0.1:8080\nChildProcesses On\n"));
    }
}
