package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code FileCacheValid} promises, through a real server and client: within the window a
 * URL path answers what its lookup found (bytes and validators together, never a mix, never a
 * file a re-linked path now leads to), and the first request after it sees the disk as it is.
 * A window of an hour shows the first half without racing the clock; one of 100 ms the second.
 */
class FileCacheTest {
    private static final Duration SHORT = Duration.ofMillis(100);
    private static final Duration LONG = Duration.ofHours(1);

    @TempDir
    Path dir;
    private Path root;
    private SiteServer site;

    private void start(Duration valid) throws Exception {
        site = new SiteServer(dir, false, valid);
        root = site.root;
    }

    @AfterEach
    void stop() {
        if (site != null) {
            site.close();
        }
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        return site.get(path, headers);
    }

    private static void afterTheWindow() throws InterruptedException {
        Thread.sleep(SHORT.toMillis() * 3 / 2);
    }

    @Test
    void withinTheWindowTheLookupIsServedWholeBytesAndValidatorsTogether() throws Exception {
        start(LONG);
        Files.writeString(root.resolve("a.txt"), "one");
        HttpResponse<String> first = get("/a.txt");
        assertEquals("one", first.body());
        Files.writeString(root.resolve("a.txt"), "changed");
        HttpResponse<String> again = get("/a.txt");
        assertEquals("one", again.body());
        assertEquals(first.headers().firstValue("ETag"), again.headers().firstValue("ETag"));
        assertEquals("3", again.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(304, get("/a.txt", "If-None-Match", first.headers().firstValue("ETag").orElseThrow())
                .statusCode());
        assertEquals("n", get("/a.txt", "Range", "bytes=1-1").body(), "ranges of the cached bytes");
    }

    @Test
    void aChangedFileIsServedFreshAfterTheWindow() throws Exception {
        start(SHORT);
        Path a = root.resolve("a.txt");
        Files.writeString(a, "one");
        String etag = get("/a.txt").headers().firstValue("ETag").orElseThrow();
        Files.writeString(a, "two, longer");
        afterTheWindow();
        HttpResponse<String> r = get("/a.txt");
        assertEquals("two, longer", r.body());
        assertNotEquals(etag, r.headers().firstValue("ETag").orElseThrow());
        assertEquals(200, get("/a.txt", "If-None-Match", etag).statusCode(), "the old tag no longer matches");
    }

    @Test
    void aFileReplacedBySameSizeAndTimeIsReadAgain() throws Exception {
        start(SHORT);
        Path a = root.resolve("a.txt");
        Files.writeString(a, "old");
        FileTime t = Files.getLastModifiedTime(a);
        assertEquals("old", get("/a.txt").body());
        Path next = root.resolve("next.tmp");
        Files.writeString(next, "new");
        Files.setLastModifiedTime(next, t);
        Files.move(next, a, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        afterTheWindow();
        assertEquals("new", get("/a.txt").body(), "another inode: the kept bytes are not reused");
    }

    @Test
    void removedFilesAndAddedVariantsAreSeenAfterTheWindow() throws Exception {
        start(SHORT);
        Files.writeString(root.resolve("a.txt"), "plain");
        Files.writeString(root.resolve("b.txt"), "gone soon");
        assertEquals("plain", get("/a.txt", "Accept-Encoding", "gzip").body());
        assertEquals(200, get("/b.txt").statusCode());
        Files.write(root.resolve("a.txt.gz"), new byte[] {31, -117});
        Files.delete(root.resolve("b.txt"));
        afterTheWindow();
        HttpResponse<String> r = get("/a.txt", "Accept-Encoding", "gzip");
        assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElseThrow());
        assertEquals("plain", get("/a.txt").body(), "no Accept-Encoding: the file itself");
        assertEquals(404, get("/b.txt").statusCode());
    }

    @Test
    void aSymlinkSwappedToLeaveTheRootNeverServesWhatItNowLeadsTo() throws Exception {
        start(LONG);
        servePageThenLinkItOutside();
        assertEquals("inside", get("/page.txt").body(), "the bytes read while it led inside");
    }

    @Test
    void aSymlinkSwappedToLeaveTheRootIsRefusedAfterTheWindow() throws Exception {
        start(SHORT);
        servePageThenLinkItOutside();
        afterTheWindow();
        assertEquals(403, get("/page.txt").statusCode());
    }

    @Test
    void aDirectorySwappedForASymlinkLeavingTheRootIsRefusedAfterTheWindow() throws Exception {
        start(SHORT);
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("f.txt"), "secret");
        Path sub = Files.createDirectories(root.resolve("sub"));
        Files.writeString(sub.resolve("f.txt"), "inside");
        assertEquals("inside", get("/sub/f.txt").body());
        Files.move(sub, root.resolve("sub.old"));
        Files.createSymbolicLink(sub, outside);
        afterTheWindow();
        assertEquals(403, get("/sub/f.txt").statusCode());
    }

    @Test
    void withAZeroWindowEveryRequestLooksAtTheDisk() throws Exception {
        start(Duration.ZERO);
        Files.writeString(root.resolve("a.txt"), "one");
        Files.writeString(dir.resolve("secret.txt"), "secret");
        assertEquals("one", get("/a.txt").body());
        Files.writeString(root.resolve("a.txt"), "two");
        assertEquals("two", get("/a.txt").body());
        swapLink(root.resolve("a.txt"), dir.resolve("secret.txt"));
        assertEquals(403, get("/a.txt").statusCode());
    }

    /** Replaces {@code link} (a file or a link) by a symlink to {@code target} in one rename. */
    /** /page.txt, a symlink to a file inside the root, is served once; then it is re-pointed outside. */
    private void servePageThenLinkItOutside() throws Exception {
        Files.writeString(dir.resolve("secret.txt"), "secret");
        Files.writeString(root.resolve("inside.txt"), "inside");
        Path link = root.resolve("page.txt");
        Files.createSymbolicLink(link, root.resolve("inside.txt"));
        assertEquals("inside", get("/page.txt").body());
        swapLink(link, dir.resolve("secret.txt"));
    }

    private void swapLink(Path link, Path target) throws Exception {
        Path tmp = link.resolveSibling("swap.tmp");
        Files.createSymbolicLink(tmp, target);
        Files.move(tmp, link, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
