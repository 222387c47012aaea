package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/** The jar's options and {@code -t}: messages and exit codes, as an operator sees them. */
class CommandLineIT {
    @TempDir
    Path dir;

    @Test
    void syntaxOkOnAGoodFile() throws Exception {
        Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("good.conf"), """
                Listen 127.0.0.1:8089
                DocumentRoot htdocs
                <Location /server-status>
                    SetHandler server-status
                    Require ip 127.0.0.1
                </Location>
                """);
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "good.conf");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Syntax OK", r.out().strip());
    }

    @Test
    void theShippedExampleIsValid() throws Exception {
        Path example = JarProcess.jar().getParent().getParent().getParent().resolve("conf/loom-mpm.conf");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", example.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("Syntax OK", r.out().strip());
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(JarProcess.jar().toFile())) {
            assertTrue(jar.getEntry("conf/loom-mpm.conf") != null, "the example is in the jar");
        }
    }

    @Test
    void syntaxErrorNamesFileAndLineAndExits1() throws Exception {
        Path f = dir.resolve("bad.conf");
        Files.writeString(f, "# comment\nListen 127.0.0.1:8089\nListne 80\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "bad.conf");
        assertEquals(1, r.exit());
        assertEquals("Syntax error on line 3 of " + f.toRealPath() + ": Invalid command 'Listne', perhaps misspelled "
                + "or defined by a module not included in the server configuration", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void outOfRangeValueIsAnError() throws Exception {
        Files.writeString(dir.resolve("range.conf"), "ThreadsPerChild 0\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "range.conf");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("line 1 of") && r.err().contains("ThreadsPerChild must be at least 1, got 0"), r.err());
    }

    @Test
    void clampedValueWarnsButPasses() throws Exception {
        Files.writeString(dir.resolve("clamp.conf"), "ThreadsPerChild 99999\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "clamp.conf");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("exceeds ThreadLimit"), r.err());
    }

    @Test
    void commandLineDirectivesAreChecked() throws Exception {
        Files.writeString(dir.resolve("ok.conf"), "KeepAlive On\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "ok.conf", "-C", "StartServers 2", "-c", "KeepAlive perhaps");
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("Syntax error on line 1 of -c option: KeepAlive must be On or Off"), r.err());
    }

    /** {@code -D} reaches {@code <IfDefine>}; {@code -t} prints the warnings, an undefined variable's among them. */
    @Test
    void dashDAndTheWarningsOfDashT() throws Exception {
        Path f = dir.resolve("ifdef.conf");
        Files.writeString(f, """
                <IfDefine !Checked>
                    Listne 80
                </IfDefine>
                ServerName ${LOOM_IT_UNSET_VARIABLE}
                """);
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "ifdef.conf");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith("Syntax error on line 2 of " + f.toRealPath() + ": Invalid command 'Listne'"),
                r.err());
        for (String[] d : List.of(new String[] {"-D", "Checked"}, new String[] {"-DChecked"})) {
            List<String> args = new ArrayList<>(List.of("-t", "-f", "ifdef.conf"));
            args.addAll(List.of(d));
            r = JarProcess.run(dir, args.toArray(new String[0]));
            assertEquals(0, r.exit(), r.err());
            assertEquals("Syntax OK", r.out().strip());
            assertEquals("Warning: line 4 of " + f.toRealPath() + ": Config variable ${LOOM_IT_UNSET_VARIABLE} is not "
                    + "defined", r.err().strip());
        }
        r = JarProcess.run(dir, "-t", "-f", "ifdef.conf", "-D", "port=80");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("option -D takes a name") && r.err().contains("usage:"), r.err());
    }

    /**
     * End to end: the same file served with and without {@code -D Staging} serves other files,
     * {@code ${name}} takes the port from the environment and the site from a {@code Define},
     * and an {@code <IfModule>} of a module loom-mpm lacks is skipped while one it has is read.
     * An undefined variable is logged at start (LM1004) only where its section is read.
     */
    @Test
    void conditionalSectionsChangeWhatIsServed() throws Exception {
        for (String site : List.of("live", "staging")) {
            Files.createDirectories(dir.resolve(site));
            Files.writeString(dir.resolve(site + "/page.txt"), site + " page");
        }
        Files.writeString(dir.resolve("site.conf"), """
                Listen 127.0.0.1:${LOOM_IT_PORT}
                Define site live
                <IfDefine Staging>
                    Define site staging
                    Header set X-Build ${LOOM_IT_UNSET}
                </IfDefine>
                DocumentRoot "${site}"
                <IfModule mod_headers.c>
                    Header set X-Site ${site}
                </IfModule>
                <IfModule mod_rewrite.c>
                    RewriteEngine On
                    RewriteRule ^ /elsewhere [R,L]
                </IfModule>
                """);
        for (boolean staging : new boolean[] {false, true}) {
            String expected = staging ? "staging" : "live";
            String[] args = staging ? new String[] {"-f", "site.conf", "-D", "Staging"} : new String[] {"-f", "site.conf"};
            try (JarProcess p = JarProcess.start(dir, Map.of("LOOM_IT_PORT", "0"), args)) {
                Curl.Response res = Curl.exchange("http://127.0.0.1:" + p.port() + "/page.txt");
                assertEquals(200, res.status(), res.toString());
                assertEquals(expected + " page", res.body());
                assertEquals(expected, res.header("X-Site"));
                p.signal("TERM");
                assertEquals(0, p.waitExit(Duration.ofSeconds(20)));
                String warning = "LM1004 line 5 of " + dir.resolve("site.conf").toRealPath()
                        + ": Config variable ${LOOM_IT_UNSET} is not defined";
                if (staging) {
                    assertEquals("${LOOM_IT_UNSET}", res.header("X-Build"), "left as written");
                    assertTrue(p.stderr().contains(warning), p.stderr());
                } else {
                    assertFalse(p.stderr().contains("LM1004"), "a skipped section is not expanded: " + p.stderr());
                }
            }
        }
    }

    @Test
    void missingFile() throws Exception {
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "nope.conf");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("could not read configuration file"), r.err());
    }

    @Test
    void unknownOptionPrintsUsageAndExits2() throws Exception {
        JarProcess.Result r = JarProcess.run(dir, "-X");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown option '-X'") && r.err().contains("usage: java -jar loom-mpm.jar"), r.err());
        assertEquals(2, JarProcess.run(dir, "-f").exit(), "-f without its argument");
    }

    @Test
    void versionAndHelp() throws Exception {
        JarProcess.Result v = JarProcess.run(dir, "-v");
        assertEquals(0, v.exit());
        assertTrue(v.out().startsWith("loom-mpm 0."), v.out());
        JarProcess.Result h = JarProcess.run(dir, "-h");
        assertEquals(0, h.exit());
        assertTrue(h.out().contains("-f file") && h.out().contains("-t"), h.out());
    }

    @Test
    void embeddedDefaultServesTheWelcomePageAndHtdocs() throws Exception {
        Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("htdocs/hello.txt"), "Hello, World!");
        try (JarProcess p = JarProcess.start(dir, "-c", "Listen 127.0.0.1:0")) {
            int port = p.port();
            String out = p.stdout();
            assertTrue(out.contains("listening on http://127.0.0.1:" + port + "/"), out);
            assertTrue(out.contains("config: embedded default"), out);
            assertTrue(out.contains("DocumentRoot " + dir.resolve("htdocs").toRealPath()), out);
            Curl.Response welcome = Curl.exchange("http://127.0.0.1:" + port + "/");
            assertEquals(200, welcome.status());
            assertTrue(welcome.body().contains("loom-mpm is running"), welcome.body());
            assertEquals("Hello, World!", Curl.exchange("http://127.0.0.1:" + port + "/hello.txt").body());
            Curl.Response status = Curl.exchange("http://127.0.0.1:" + port + "/server-status?auto");
            assertTrue(status.body().contains("ParentServerConfigGeneration: 1\n"), status.body());
            p.signal("TERM");
            assertEquals(0, p.waitExit(Duration.ofSeconds(20)));
            assertTrue(p.stdout().contains("\"GET /hello.txt HTTP/1.1\" 200 13\n"), "access log on stdout: " + p.stdout());
        }
    }

    @Test
    void customLogToDevNullTurnsTheAccessLogOff() throws Exception {
        Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("htdocs/hello.txt"), "Hello, World!");
        try (JarProcess p = JarProcess.start(dir, "-c", "Listen 127.0.0.1:0",
                "-c", "CustomLog /dev/null common")) {
            int port = p.port();
            assertEquals("Hello, World!", Curl.exchange("http://127.0.0.1:" + port + "/hello.txt").body());
            p.signal("TERM");
            assertEquals(0, p.waitExit(Duration.ofSeconds(20)));
            assertFalse(p.stdout().contains("GET /hello.txt"), p.stdout());
        }
    }
}
