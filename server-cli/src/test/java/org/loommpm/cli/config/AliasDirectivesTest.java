package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.cli.alias.Alias;
import org.loommpm.cli.alias.Redirect;
import org.loommpm.cli.alias.UrlMapping;

/** mod_alias's directives: every form they accept, and the located errors for what they refuse. */
class AliasDirectivesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void tree() throws Exception {
        Files.createDirectories(dir.resolve("assets/sub"));
        Files.writeString(dir.resolve("assets/a.txt"), "a");
        Files.createSymbolicLink(dir.resolve("assets-link"), dir.resolve("assets"));
    }

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private UrlMapping mapping(String text) throws Exception {
        return (UrlMapping) parse(text).extensions().get(UrlMapping.KEY);
    }

    private Redirect redirect(String line) throws Exception {
        List<Redirect> all = mapping(line + "\n").redirects();
        assertEquals(1, all.size(), line);
        return all.get(0);
    }

    /** The error's report, which must name the file and the line. */
    private String error(String text) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(text), text);
        assertTrue(e.report().contains(" of " + dir.resolve("loom.conf")), e.report());
        return e.report();
    }

    @Test
    void noLineNoMapping() throws Exception {
        assertNull(parse("DocumentRoot assets\n").extensions().get(UrlMapping.KEY),
                "without a mod_alias line the site does no mod_alias work");
    }

    @Test
    void redirectStatusesAndForms() throws Exception {
        Redirect r = redirect("Redirect /old https://example.com/new");
        assertEquals(302, r.status());
        assertEquals("/old", r.urlPath());
        assertEquals("https://example.com/new", r.url());
        assertEquals(301, redirect("Redirect permanent /old https://example.com/new").status());
        assertEquals(301, redirect("Redirect PERMANENT /old https://example.com/new").status(), "keywords ignore case");
        assertEquals(302, redirect("Redirect temp /old https://example.com/new").status());
        assertEquals(303, redirect("Redirect seeother /old /elsewhere").status());
        assertEquals(307, redirect("Redirect 307 /old /elsewhere").status());
        assertEquals(308, redirect("Redirect 308 /old http://127.0.0.1:8080/x?y=1").status());
        r = redirect("Redirect gone /old");
        assertEquals(410, r.status());
        assertNull(r.url());
        assertEquals(410, redirect("Redirect 410 /old").status());
        assertEquals(451, redirect("Redirect 451 /old").status());
        assertEquals(301, redirect("RedirectPermanent /old /new").status());
        assertEquals(302, redirect("RedirectTemp /old /new").status());
        assertEquals("https://example.com/", redirect("Redirect /old/ https://example.com").url(),
                "a host-only URL gets the slash the rest of the path would otherwise be glued to the host without");
        assertEquals("https://example.com", redirect("Redirect /old https://example.com").url());
        assertEquals("https://example.com/", redirect("Redirect / https://example.com").url());
        assertEquals("https://example.com/?a=1", redirect("Redirect /old/ https://example.com?a=1").url());
    }

    @Test
    void redirectMatchForms() throws Exception {
        Redirect r = redirect("RedirectMatch ^/img/(.*)\\.gif$ https://cdn.example.com/img/$1.png");
        assertEquals(302, r.status());
        assertEquals("^/img/(.*)\\.gif$", r.regex().pattern());
        assertEquals(301, redirect("RedirectMatch permanent (.*)\\.gif$ http://other.example.com$1.jpg").status());
        assertEquals(410, redirect("RedirectMatch gone ^/old/").status());
        assertEquals(302, redirect("RedirectMatch ^(/docs/.*)$ $1").status(),
                "a path from a group: checked per request");
        assertEquals(302, redirect("RedirectMatch ^/a/(.*)$ /b/$1").status());
        assertEquals(302, redirect("RedirectMatch ^/a/(.*)$ https://example.com/\\$1").status(), "\\$ is a dollar");
    }

    @Test
    void redirectInsideLocationTakesTheSectionsPath() throws Exception {
        UrlMapping m = mapping("""
                <Location /moved>
                    Redirect https://example.com/here
                </Location>
                <Location /perm>
                    Redirect permanent /new
                </Location>
                <Location /gone>
                    Redirect gone
                </Location>
                <Location /p2>
                    RedirectPermanent https://example.com/
                    RedirectTemp /t
                </Location>
                """);
        assertEquals(List.of(), m.redirects(), "none at the server level");
        for (String p : List.of("/moved", "/moved/x", "/perm/a/b", "/gone", "/p2")) {
            assertTrue(m.sectionRedirects(p), p);
        }
        assertTrue(!m.sectionRedirects("/movedx") && !m.sectionRedirects("/"), "whole segments, as the section");
    }

    @Test
    void aliasForms() throws Exception {
        UrlMapping m = mapping("""
                Alias /assets assets
                Alias /a.txt %1$s/assets/a.txt
                Alias /linked/ assets-link/
                AliasMatch ^/icons/([a-z]+)\\.txt$ assets/$1.txt
                AliasMatch ^/one$ assets/a.txt
                AliasMatch ^/files(.*)$ %1$s/assets$1
                """.formatted(dir));
        List<Alias> a = m.aliases();
        Path assets = dir.resolve("assets").toRealPath();
        assertEquals(6, a.size());
        assertEquals("/assets", a.get(0).urlPath());
        assertEquals(assets, a.get(0).root(), "relative to ServerRoot, a real path");
        assertEquals(assets.resolve("a.txt"), a.get(1).root(), "an alias of one file");
        assertEquals(assets, a.get(2).root(), "a symlinked target is anchored at its real path");
        assertEquals(assets, a.get(3).root(), "AliasMatch: the directory before the first $n");
        assertEquals(assets.resolve("a.txt"), a.get(4).root(), "AliasMatch without $n: the target itself");
        assertEquals(dir.toRealPath(), a.get(5).root(), "the written part up to its last slash");
        assertEquals(assets.resolve("a.txt"), a.get(3).file("/icons/a.txt"));
        assertNull(a.get(3).file("/icons/A.txt"));
        assertEquals(assets.resolve("sub"), a.get(0).file("/assets/sub/"));
        assertEquals(assets, a.get(0).file("/assets"));
        assertNull(a.get(0).file("/assetsx/a.txt"), "whole segments");
        assertNull(a.get(2).file("/linked"), "a URL-path ending in / needs the slash");
    }

    @Test
    void overlapsAndMismatchedSlashesAreWarned() throws Exception {
        List<String> w = parse("""
                Redirect /a https://example.com/a
                Redirect /a/b https://example.com/b
                Alias /x assets
                Alias /x/y assets/sub
                Redirect /c/ https://example.com/c
                """).warnings();
        assertEquals(3, w.size(), w.toString());
        assertTrue(w.get(0).contains("line 2") && w.get(0).contains("never match"), w.get(0));
        assertTrue(w.get(1).contains("line 4") && w.get(1).contains("never match"), w.get(1));
        assertTrue(w.get(2).contains("line 5") && w.get(2).contains("end in /"), w.get(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // status
        "Redirect bogus /a https://example.com/|'bogus' is not a status",
        "Redirect 200 /a|'200' is not a status",
        "Redirect 304 /a /b|'304' is not a status",
        "Redirect 3000 /a /b|'3000' is not a status",
        "Redirect 30x /a /b|'30x' is not a status",
        "RedirectMatch 1xx ^/a /b|'1xx' is not a status",
        // arguments for the status
        "Redirect /a|takes a URL-path and a URL",
        "Redirect permanent /a|status 301 needs the URL",
        "RedirectPermanent /a|status 301 needs the URL",
        "Redirect 307 /a|status 307 needs the URL",
        "Redirect gone /a https://example.com/|status 410 takes no URL",
        "RedirectMatch 404 ^/a https://example.com/|status 404 takes no URL",
        "Redirect /a https://example.com/ extra|'/a' is not a status",
        "Redirect permanent /a https://example.com/ extra|takes 1 to 3 arguments",
        "RedirectTemp /a /b /c|takes 1 to 2 arguments",
        "RedirectMatch ^/a|RedirectMatch takes 2 to 3 arguments",
        "Redirect permanent|takes a URL-path and a URL outside <Location>",
        // URL-path and URL
        "Redirect old https://example.com/|needs a normalized URL-path",
        "Redirect /a/../b https://example.com/|needs a normalized URL-path",
        "Redirect //a https://example.com/|needs a normalized URL-path",
        "Alias /a/./b assets|needs a normalized URL-path",
        "Redirect /a example.com/b|neither an absolute URL",
        "Redirect /a https://|neither an absolute URL",
        "Redirect /a mailto:me@example.com|neither an absolute URL",
        "Redirect /a 'https://example.com/a b'|must be written percent-encoded",
        "Redirect /a https://example.com/%zz|must be written percent-encoded",
        "Redirect /a https://example.com/<x>|must be written percent-encoded",
        // regex
        "RedirectMatch ^/(a https://example.com/|is not a valid regular expression",
        "AliasMatch ^/(a assets|is not a valid regular expression",
        "RedirectMatch ^/[[:alpha:]]+$ https://example.com/|POSIX classes",
        "RedirectMatch ^/(a)$ https://example.com/$2|refers to $2 but the expression has 1 group",
        "AliasMatch ^/(a)/(b)$ assets/$3|refers to $3 but the expression has 2 groups",
        "RedirectMatch ^/(.*)$ https://$1/|the host must be written out",
        "RedirectMatch ^/(.*)$ http$1|scheme and host must be written out",
        "RedirectMatch ^/(.*)$ example.com/$1|scheme and host must be written out",
        // targets
        "Alias /a missing|does not exist",
        "Alias /a|Alias takes 2 arguments",
        "Alias /a assets extra|Alias takes 2 arguments",
        "AliasMatch ^/(.*)$ missing/$1|does not exist",
        "AliasMatch ^/(.*)$ assets/a.txt/$1|is not a directory",
        "AliasMatch ^/x$ assets/missing.txt|does not exist",
    })
    void refused(String spec) {
        String[] s = spec.split("\\|");
        String report = error("# line 1\n" + s[0] + "\n");
        assertTrue(report.startsWith("Syntax error on line 2 of "), report);
        assertTrue(report.contains(s[1]), report);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Redirect /a https://example.com/|takes the section's path",
        "Redirect permanent|status 301 needs the URL",
        "Redirect gone https://example.com/|status 410 takes no URL",
        "RedirectPermanent /a https://example.com/|takes the section's path",
        "Redirect permanent https://example.com/ extra|takes the section's path",
        "RedirectMatch ^/a https://example.com/|cannot occur within <Location>",
        "Alias /a assets|cannot occur within <Location>",
        "AliasMatch ^/a assets|cannot occur within <Location>",
        "Redirect https://example.com/%{REQUEST_URI}|must be written percent-encoded",
    })
    void refusedInsideLocation(String spec) {
        String[] s = spec.split("\\|");
        String report = error("<Location /x>\n" + s[0] + "\n</Location>\n");
        assertTrue(report.startsWith("Syntax error on line 2 of "), report);
        assertTrue(report.contains(s[1]), report);
    }
}
