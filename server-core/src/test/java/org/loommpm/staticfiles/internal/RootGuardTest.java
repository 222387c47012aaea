package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RootGuardTest {
    @TempDir
    Path dir;

    @Test
    void symlinksOutOfTheRootAreRefusedUnlessFollowed() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root")).toRealPath();
        Files.writeString(dir.resolve("secret"), "s");
        Files.writeString(root.resolve("in.txt"), "i");
        Files.createSymbolicLink(root.resolve("out"), dir.resolve("secret"));
        Files.createSymbolicLink(root.resolve("in-link"), root.resolve("in.txt"));
        Files.createSymbolicLink(root.resolve("outdir"), dir);
        RootGuard strict = new RootGuard(root, false, 0);
        assertNotNull(strict.attributes(root.resolve("in.txt")));
        assertTrue(strict.attributes(root.resolve("in-link")).isRegularFile(), "the target's attributes");
        assertNull(strict.attributes(root.resolve("out")));
        assertNull(strict.attributes(root.resolve("outdir/secret")), "a directory leading out");
        assertTrue(strict.attributes(root).isDirectory());
        assertThrows(NoSuchFileException.class, () -> strict.attributes(root.resolve("none")));
        RootGuard follow = new RootGuard(root, true, 0);
        assertNotNull(follow.attributes(root.resolve("out")));
        assertNotNull(follow.attributes(root.resolve("outdir/secret")));
    }

    @Test
    void aKeptDirectoryVerdictLastsItsWindowButAFreshCheckSeesTheSwap() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root")).toRealPath();
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("f"), "secret");
        Path sub = Files.createDirectories(root.resolve("sub"));
        Files.writeString(sub.resolve("f"), "inside");
        RootGuard guard = new RootGuard(root, false, java.util.concurrent.TimeUnit.HOURS.toNanos(1));
        assertNotNull(guard.attributes(sub.resolve("f")));
        Files.move(sub, root.resolve("sub.old"));
        Files.createSymbolicLink(sub, outside);
        assertNotNull(guard.attributes(sub.resolve("f")), "within the window the kept verdict stands");
        assertTrue(!guard.directoryInsideNow(sub, System.nanoTime()), "a fresh check resolves again");
        assertNull(guard.attributes(sub.resolve("f")), "and replaces the kept verdict");
        RootGuard exact = new RootGuard(root, false, 0);
        assertNull(exact.attributes(sub.resolve("f")), "no window: resolved on every call");
    }
}
