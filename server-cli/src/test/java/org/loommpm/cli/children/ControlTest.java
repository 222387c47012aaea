package org.loommpm.cli.children;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The pipe protocol's lines and the child's command-line spec survive a round trip; bad input is refused. */
class ControlTest {
    @Test
    void commandsRoundTrip() {
        for (Control c : new Control[] {Control.STOP, Control.drain(false, "graceful restart to generation 2"),
            Control.drain(true, "9 free worker slots"), Control.ping(1), Control.ping(Integer.MAX_VALUE)}) {
            assertEquals(c, Control.decode(c.encode()));
        }
        assertEquals("drain finishing a b", Control.drain(false, "a\nb").encode());
        assertThrows(IllegalArgumentException.class, () -> Control.decode("pause"));
        assertThrows(IllegalArgumentException.class, () -> Control.decode("drain later"));
        assertEquals("ping 7", Control.ping(7).encode());
        assertThrows(IllegalArgumentException.class, () -> Control.decode("ping soon"));
    }

    @Test
    void childSpecRoundTripsWithColonsInThePath() {
        ChildSpec s = new ChildSpec(3, 12, 2, Path.of("/tmp/a:b/sb"));
        assertEquals(s, ChildSpec.decode(s.encode()));
        assertThrows(IllegalArgumentException.class, () -> ChildSpec.decode("1:2:x:/p"));
        assertThrows(IllegalArgumentException.class, () -> ChildSpec.decode("1:2:3"));
    }

    @Test
    void aDebuggerAgentIsNotPassedToChildren() {
        assertEquals(java.util.List.of("-Xmx64m"), ChildCommand.inheritable(java.util.List.of(
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-Xmx64m")));
    }

    @Test
    void childrenExitOnOutOfMemoryUnlessTheOptionsSayOtherwise() {
        assertEquals(java.util.List.of("-Xmx64m", "-XX:+ExitOnOutOfMemoryError"),
                ChildCommand.exitOnOutOfMemory(java.util.List.of("-Xmx64m")));
        for (String own : new String[] {"-XX:+ExitOnOutOfMemoryError", "-XX:-ExitOnOutOfMemoryError",
                "-XX:+CrashOnOutOfMemoryError", "-XX:OnOutOfMemoryError=kill -9 %p"}) {
            assertEquals(java.util.List.of("-Xmx64m", own), ChildCommand.exitOnOutOfMemory(java.util.List.of("-Xmx64m", own)));
        }
    }

    @Test
    void aStartupCacheIsReadButNotWrittenByChildren() {
        assertEquals(java.util.List.of("-XX:AOTCache=/c/loom.aot", "-XX:SharedArchiveFile=/c/loom.jsa", "-Xmx64m"),
                ChildCommand.inheritable(java.util.List.of("-XX:AOTCacheOutput=/c/loom.aot", "-XX:AOTMode=record",
                        "-XX:AOTConfiguration=/c/loom.aotconf", "-XX:ArchiveClassesAtExit=/c/loom.jsa",
                        "-XX:AOTCache=/c/loom.aot", "-XX:SharedArchiveFile=/c/loom.jsa", "-Xmx64m")));
    }
}
