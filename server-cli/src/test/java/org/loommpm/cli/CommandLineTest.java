package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.config.LoomConfig;
import org.loommpm.config.ServerConfig;

/** The jar's options as {@link CommandLine} reads them; {@code -D} as httpd's. */
class CommandLineTest {
    @TempDir
    Path dir;

    private static String usageError(String... args) {
        return assertThrows(CommandLine.UsageException.class, () -> CommandLine.parse(args)).getMessage();
    }

    @Test
    void dashDDefinesNamesInOrderWithOrWithoutABlank() throws Exception {
        CommandLine cl = CommandLine.parse(new String[] {"-D", "SSL", "-DStaging", "-f", "x.conf", "-D", "SSL"});
        assertEquals(List.of("SSL", "Staging", "SSL"), cl.defines());
        assertEquals(List.of("-f", Path.of("x.conf").toAbsolutePath().toString(), "-D", "SSL", "-D", "Staging", "-D",
                "SSL"), cl.configArgs(), "a child process of ChildProcesses On gets them too");
        assertEquals(List.of(), CommandLine.parse(new String[0]).defines());
    }

    @Test
    void dashDTakesANameOnly() {
        assertEquals("option -D needs an argument", usageError("-t", "-D"));
        String e = usageError("-D", "root=/srv");
        assertTrue(e.contains("takes a name") && e.contains("-C \"Define root /srv\""), e);
        assertEquals("option -D: Variable name must not contain ':'", usageError("-Da:b"));
        assertEquals("option -D: the name is empty", usageError("-D", ""));
    }

    /** What Main reads for the command line: the -D names reach {@code <IfDefine>}. */
    @Test
    void theLoaderPassesTheNamesToTheParser() throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, "<IfDefine Big>\nThreadsPerChild 7\n</IfDefine>\n");
        CommandLine cl = CommandLine.parse(new String[] {"-f", f.toString(), "-DBig"});
        LoomConfig c = new Main.FileLoader(cl).load();
        assertEquals(7, c.engine().threadsPerChild());
        assertEquals(ServerConfig.builder().build().threadsPerChild(),
                new Main.FileLoader(CommandLine.parse(new String[] {"-f", f.toString()})).load().engine().threadsPerChild());
    }
}
