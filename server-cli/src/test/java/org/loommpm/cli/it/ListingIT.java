package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/** {@code Options Indexes FollowSymLinks}, a second DirectoryIndex, {@code EnableSendfile Off}. */
class ListingIT {
    @TempDir
    Path dir;

    @Test
    void listingsAreEscapedAndSymlinksFollowedWhenAllowed() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("outside.txt"), "outside");
        Path d = Files.createDirectories(root.resolve("files"));
        Files.writeString(d.resolve("<script>alert(1)<\\script>.txt"), "x");
        Files.writeString(d.resolve("a&b.txt"), "y");
        Files.createDirectories(d.resolve("nested"));
        Files.createDirectories(root.resolve("home"));
        Files.writeString(root.resolve("home/default.htm"), "second index");
        Files.createSymbolicLink(root.resolve("link.txt"), dir.resolve("outside.txt"));
        byte[] big = new byte[100_000];
        java.util.Arrays.fill(big, (byte) 'z');
        Files.write(root.resolve("big.bin"), big);
        Files.writeString(dir.resolve("loom.conf"), """
                Listen 127.0.0.1:0
                DocumentRoot htdocs
                DirectoryIndex index.html default.htm
                Options Indexes FollowSymLinks
                EnableSendfile Off
                CustomLog /dev/null common
                """);
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            String base = "http://127.0.0.1:" + server.port();
            Curl.Response listing = Curl.exchange(base + "/files/");
            assertEquals(200, listing.status());
            assertEquals("text/html; charset=UTF-8", listing.header("Content-Type"));
            String html = listing.body();
            assertTrue(html.contains("Index of /files/"), html);
            assertTrue(html.contains("&lt;script&gt;alert(1)&lt;\\script&gt;.txt"), html);
            assertFalse(html.contains("<script>"), "names are escaped: " + html);
            assertTrue(html.contains("href=\"%3Cscript%3Ealert%281%29%3C%5Cscript%3E.txt\""), html);
            assertTrue(html.contains("a&amp;b.txt") && html.contains("nested/") && html.contains("Parent Directory"), html);
            assertEquals("second index", Curl.exchange(base + "/home/").body());
            assertEquals("outside", Curl.exchange(base + "/link.txt").body(), "FollowSymLinks serves links out of the root");
            Curl.Response copy = Curl.exchange(base + "/big.bin");
            assertEquals(100_000, copy.body().length(), "copied without sendfile");
            Curl.Response range = Curl.exchange("-H", "Range: bytes=50000-89999", base + "/big.bin");
            assertEquals(206, range.status());
            assertEquals(40_000, range.body().length());
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
        }
    }
}
