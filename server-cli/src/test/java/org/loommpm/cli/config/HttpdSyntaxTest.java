package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Corners of the configuration language where loom-mpm must read a file as httpd reads it. */
class HttpdSyntaxTest {
    @TempDir
    Path dir;

    /**
     * httpd matches a wildcard with {@code APR_FNM_PERIOD}: {@code *.conf} never takes a hidden
     * file, which is how operators park a file they have switched off (or an editor leaves one).
     */
    @Test
    void aWildcardIncludeSkipsHiddenFiles() throws Exception {
        Files.createDirectories(dir.resolve("conf.d"));
        Files.writeString(dir.resolve("conf.d/site.conf"), "ThreadsPerChild 10\n");
        Files.writeString(dir.resolve("conf.d/.old-site.conf"), "StartServers 7\n");
        LoomConfig c = ConfigFiles.parse(dir, "Include conf.d/*.conf\n");
        assertEquals(10, c.engine().threadsPerChild());
        assertEquals(1, c.engine().startServers(), "the hidden file was not read");
        assertEquals(7, ConfigFiles.parse(dir, "Include conf.d/.*.conf\n").engine().startServers(),
                "a pattern starting with a dot takes hidden files");
    }

    /** httpd removes a line-ending backslash and joins the next line as it is: no blank is added. */
    @Test
    void aContinuationJoinsTheLinesWithoutAddingABlank() throws Exception {
        LoomConfig c = ConfigFiles.parse(dir, "DirectoryIndex \"index.\\\nhtml\" \\\n  home.html\n");
        assertEquals(List.of("index.html", "home.html"), c.site().directoryIndex());
    }

    /**
     * mod_dir: several {@code DirectoryIndex} lines in one context add to the list (the built-in
     * {@code index.html} only stands when there is none); {@code disabled} alone empties it.
     */
    @Test
    void directoryIndexLinesAddUp() throws Exception {
        assertEquals(List.of("index.htm", "index.php"),
                ConfigFiles.parse(dir, "DirectoryIndex index.htm\nDirectoryIndex index.php\n").site().directoryIndex());
        assertEquals(List.of("home.html"), ConfigFiles.parse(dir,
                "DirectoryIndex index.htm\nDirectoryIndex disabled\nDirectoryIndex home.html\n").site().directoryIndex());
    }
}
