package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * httpd 2.4's conditional sections ({@code <IfDefine>}, {@code <IfModule>}, {@code <IfDirective>},
 * {@code <IfFile>}) with {@code Define}, {@code UnDefine} and {@code -D}: what is read, what is
 * skipped, and the errors an operator sees.
 */
class IfSectionsTest {
    private static final int DEFAULT_THREADS = org.loommpm.config.ServerConfig.builder().build().threadsPerChild();

    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    /** {@code text} as the main file, with {@code -D} names. */
    private LoomConfig parse(String text, List<String> defines) throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, text);
        return new ConfigParser(DirectiveTable.standard(), Map.of())
                .parse(new ConfigParser.Source(f, null, List.of(), List.of(), defines));
    }

    private ConfigException error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text));
    }

    private static int threads(LoomConfig c) {
        return c.engine().threadsPerChild();
    }

    @Test
    void ifDefineReadsItsLinesOnlyWhenTheNameIsDefined() throws Exception {
        String text = """
                ThreadsPerChild 10
                <IfDefine Big>
                    ThreadsPerChild 20
                </IfDefine>
                <IfDefine !Big>
                    StartServers 3
                </IfDefine>
                """;
        LoomConfig plain = parse(text);
        assertEquals(10, threads(plain));
        assertEquals(3, plain.engine().startServers(), "negation: read when the name is not defined");
        LoomConfig big = parse(text, List.of("Big"));
        assertEquals(20, threads(big));
        assertEquals(1, big.engine().startServers());
        assertEquals(10, threads(parse(text, List.of("big"))), "names are case-sensitive, as httpd's");
    }

    @Test
    void defineCountsFromTheNextLineOnAndUnDefineTakesANameBack() throws Exception {
        LoomConfig c = parse("""
                <IfDefine Late>
                    ThreadsPerChild 20
                </IfDefine>
                Define Late
                <IfDefine Late>
                    StartServers 4
                </IfDefine>
                UnDefine Late
                <IfDefine Late>
                    ServerName after.example
                </IfDefine>
                """);
        assertEquals(DEFAULT_THREADS, threads(c), "a section above the Define is not read");
        assertEquals(4, c.engine().startServers());
        assertNull(c.site().serverName(), "UnDefine");
        assertEquals(1, parse("UnDefine X\n<IfDefine X>\nStartServers 2\n</IfDefine>\n", List.of("X"))
                .engine().startServers(), "UnDefine takes back a -D name too");
        // A Define inside a section that is read counts; one inside a skipped section does not.
        c = parse("""
                <IfDefine !Off>
                    Define On
                </IfDefine>
                <IfDefine Off>
                    Define Never
                </IfDefine>
                <IfDefine On>
                    StartServers 2
                </IfDefine>
                <IfDefine Never>
                    StartServers 9
                </IfDefine>
                """);
        assertEquals(2, c.engine().startServers());
    }

    @Test
    void sectionsNest() throws Exception {
        String text = """
                <IfDefine A>
                    <IfDefine B>
                        ThreadsPerChild 11
                    </IfDefine>
                    <IfDefine !B>
                        ThreadsPerChild 12
                        <IfModule mod_nope.c>
                            NoSuchDirective here
                        </IfModule>
                    </IfDefine>
                    <IfModule mod_ssl.c>
                        StartServers 2
                    </IfModule>
                </IfDefine>
                """;
        assertEquals(DEFAULT_THREADS, threads(parse(text)));
        assertEquals(1, parse(text).engine().startServers());
        assertEquals(11, threads(parse(text, List.of("A", "B"))));
        LoomConfig a = parse(text, List.of("A"));
        assertEquals(12, threads(a));
        assertEquals(2, a.engine().startServers());
    }

    @Test
    void sectionsWorkInsideLocationAndProxyAndAroundThem() throws Exception {
        LoomConfig c = parse("""
                <IfModule mod_status.c>
                    <Location /server-status>
                        SetHandler server-status
                        <IfDefine Open>
                            Require all granted
                        </IfDefine>
                        <IfDefine !Open>
                            Require ip 127.0.0.1
                        </IfDefine>
                    </Location>
                </IfModule>
                <Proxy balancer://app>
                    BalancerMember http://127.0.0.1:9001/
                    <IfDefine Spare>
                        BalancerMember http://127.0.0.1:9002/
                    </IfDefine>
                    <IfModule !mod_proxy_balancer.c>
                        BalancerMember http://127.0.0.1:9003/
                    </IfModule>
                </Proxy>
                ProxyPass /app/ balancer://app/
                """, List.of("Spare"));
        assertEquals(1, c.site().locations().size());
        LocationSettings loc = c.site().locations().get(0);
        assertEquals("server-status", loc.handler());
        assertFalse(loc.require().allows(java.net.InetAddress.getByName("10.0.0.1"), null, "GET"), loc.require().toString());
        assertEquals(2, ProxySettings.of(c).balancers.get("app").members.size());
    }

    @Test
    void aSkippedSectionIsNotValidatedButMustBeWellFormed() throws Exception {
        LoomConfig c = parse("""
                <IfModule mod_rewrite.c>
                    RewriteEngine On
                    RewriteRule "^/old(.*) /new$1 [R=301,L]
                    <Directory "/var/www">
                        AllowOverride None
                    </Directory>
                    Listen not-even-a-port
                </IfModule>
                <IfDefine NotSet>
                    Include /nonexistent/*.conf
                    ServerName ${UNDEFINED_IN_A_SKIPPED_SECTION}
                </IfDefine>
                ThreadsPerChild 7
                """);
        assertEquals(7, threads(c));
        assertEquals(List.of(), c.warnings(), "a skipped line is not expanded: no warning");
        assertEquals(parse("").engine().listen(), c.engine().listen(), "the Listen of the skipped section");

        ConfigException e = error("ServerName a\n<IfModule mod_nope.c>\n<Directory /x>\n</IfModule>\n");
        assertEquals(4, e.line());
        assertEquals("Expected </Directory> but saw </IfModule>", e.getMessage());
        assertTrue(e.source().endsWith("loom.conf"), e.source());
        e = error("<IfDefine X>\n  <Foo>\n  </Foo>\nListen 80\n");
        assertEquals(1, e.line());
        assertEquals("<IfDefine> was not closed.", e.getMessage());
        e = error("<IfDefine X>\n  <Foo bar>\n");
        assertEquals(2, e.line(), "the innermost section left open");
        assertEquals("<Foo> was not closed.", e.getMessage());
        e = error("<IfDefine X>\n  <Foo bar\n</IfDefine>\n");
        assertEquals(2, e.line());
        assertTrue(e.getMessage().contains("lacks its closing '>'"), e.getMessage());
        assertEquals("</IfDefine> takes no arguments", error("<IfDefine X>\n</IfDefine X>\n").getMessage());
    }

    @Test
    void errorsNameTheFileAndTheLine() throws Exception {
        ConfigException e = error("ServerName a\n<IfDefine X>\n");
        assertEquals(2, e.line());
        assertEquals("<IfDefine> was not closed.", e.getMessage());
        assertTrue(e.report().startsWith("Syntax error on line 2 of " + dir.resolve("loom.conf").toRealPath()),
                e.report());
        e = error("\n</IfModule>\n");
        assertEquals(2, e.line());
        assertEquals("</IfModule> without matching <IfModule> section", e.getMessage());
        assertEquals("Expected </Location> but saw </IfDefine>",
                error("<IfDefine !X>\n<Location /a>\n</IfDefine>\n</Location>\n").getMessage());
        assertEquals("Expected </IfDefine> but saw </Location>",
                error("<Location /a>\n<IfDefine !X>\n</Location>\n</IfDefine>\n").getMessage());
        assertEquals("<IfDefine> takes one argument: <IfDefine [!]parameter-name>",
                error("<IfDefine>\n</IfDefine>\n").getMessage());
        assertEquals("<IfModule> takes one argument: <IfModule [!]module-file|module-identifier>",
                error("<IfModule !>\n</IfModule>\n").getMessage());
        assertTrue(error("<IfDefine A B>\n</IfDefine>\n").getMessage().contains("takes one argument"));
        assertTrue(error("<IfFile \"a\0b\">\n</IfFile>\n").getMessage().contains("is not a valid path"));
        // A section opened in an included file closes there, as in httpd.
        Files.writeString(dir.resolve("open.conf"), "<IfDefine !X>\n");
        e = error("Include open.conf\n</IfDefine>\n");
        assertEquals(1, e.line());
        assertTrue(e.source().endsWith("open.conf"), e.source());
    }

    @Test
    void defineAndUnDefineNamesAndContext() {
        assertEquals("Define: Variable name must not contain ':'", error("Define a:b\n").getMessage());
        assertEquals("UnDefine: Variable name must not contain ':'", error("UnDefine a:b\n").getMessage());
        assertTrue(error("Define a b c\n").getMessage().contains("Define takes 1 to 2 arguments"));
        assertEquals("Define cannot occur within <Location> section",
                error("<Location /a>\nDefine X\n</Location>\n").getMessage());
    }

    @Test
    void ifModuleKnowsTheModulesWhoseDirectivesAreHere() throws Exception {
        for (IfSections.Module m : IfSections.MODULES) {
            for (String spelling : List.of(m.file(), m.symbol())) {
                assertEquals(7, threads(parse("<IfModule " + spelling + ">\nThreadsPerChild 7\n</IfModule>\n")),
                        spelling);
                assertEquals(DEFAULT_THREADS, threads(parse("<IfModule !" + spelling + ">\nThreadsPerChild 7\n</IfModule>\n")),
                        spelling);
            }
        }
        for (String absent : List.of("mod_rewrite.c", "rewrite_module", "mpm_prefork_module", "prefork.c",
                "mod_autoindex.c", "mod_ssl", "ssl", "MOD_SSL.C", "mod_mpm_event.c")) {
            assertEquals(DEFAULT_THREADS, threads(parse("<IfModule " + absent + ">\nThreadsPerChild 7\n</IfModule>\n")), absent);
            assertEquals(7, threads(parse("<IfModule !" + absent + ">\nThreadsPerChild 7\n</IfModule>\n")), absent);
        }
    }

    /** Each module stands for directives the table really has: the list cannot outlive them. */
    @Test
    void everyModuleNamesRegisteredDirectives() {
        DirectiveTable t = DirectiveTable.standard();
        for (IfSections.Module m : IfSections.MODULES) {
            assertTrue(m.file().endsWith(".c") && m.symbol().endsWith("_module"), m.toString());
            for (String d : m.directives()) {
                DirectiveTable.Directive found = t.lookup(d);
                assertTrue(found != null && found.name().equals(d), m.file() + ": " + d + " is not registered");
            }
        }
    }

    /** docs/configuration-file.md's module table lists the same modules, in the same order, both spellings. */
    @Test
    void theDocumentedModulesAreTheModules() throws Exception {
        List<String> code = new ArrayList<>();
        for (IfSections.Module m : IfSections.MODULES) {
            code.add("`" + m.file() + "`, `" + m.symbol() + "`");
        }
        List<String> doc = new ArrayList<>();
        for (DocTables.Table t : DocTables.read()) {
            if (!t.header().isEmpty() && t.header().get(0).equals("module")) {
                for (List<String> row : t.rows()) {
                    doc.add(row.get(0));
                }
            }
        }
        assertEquals(code, doc);
    }

    /**
     * The modules docs/configuration-file.md names as not present after its module table are absent:
     * a module added to the table (mod_alias) must leave that list.
     */
    @Test
    void theModulesDocumentedAsAbsentAreAbsent() throws Exception {
        String doc = DocTables.text();
        int at = doc.indexOf("Not present, among those httpd configurations often test:");
        assertTrue(at >= 0, "the paragraph is there");
        String paragraph = doc.substring(at, doc.indexOf("\n\n", at));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("`(mod_[a-z_]+)`").matcher(paragraph);
        int checked = 0;
        while (m.find()) {
            String file = m.group(1) + ".c";
            assertEquals(DEFAULT_THREADS, threads(parse("<IfModule " + file + ">\nThreadsPerChild 7\n</IfModule>\n")),
                    file + " is documented as not present, but <IfModule " + file + "> is read");
            checked++;
        }
        assertTrue(checked > 5, paragraph);
    }

    @Test
    void ifDirectiveAsksTheDirectiveTable() throws Exception {
        String text = """
                <IfDirective %s>
                    ThreadsPerChild 7
                </IfDirective>
                """;
        for (String present : List.of("ThreadsPerChild", "threadsperchild", "Header", "Define", "UnDefine",
                "Include", "IncludeOptional", "BalancerMember")) {
            assertEquals(7, threads(parse(text.formatted(present))), present);
            assertEquals(DEFAULT_THREADS, threads(parse(text.formatted("!" + present))), present);
        }
        for (String absent : List.of("RewriteRule", "AllowOverride", "ThreadsPerChil")) {
            assertEquals(DEFAULT_THREADS, threads(parse(text.formatted(absent))), absent);
            assertEquals(7, threads(parse(text.formatted("!" + absent))), absent);
        }
    }

    @Test
    void ifFileLooksRelativeToServerRoot() throws Exception {
        Files.createDirectories(dir.resolve("root/conf"));
        Files.writeString(dir.resolve("root/conf/extra.conf"), "ThreadsPerChild 7\n");
        String text = """
                ServerRoot root
                <IfFile conf/extra.conf>
                    Include conf/extra.conf
                </IfFile>
                <IfFile !conf/missing.conf>
                    StartServers 2
                </IfFile>
                <IfFile conf>
                    ServerName directories.count
                </IfFile>
                <IfFile "%s">
                    MaxConnectionsPerChild 5
                </IfFile>
                """.formatted(dir.resolve("root/conf/extra.conf"));
        LoomConfig c = parse(text);
        assertEquals(7, threads(c));
        assertEquals(2, c.engine().startServers());
        assertEquals("directories.count", c.site().serverName());
        assertEquals(5L, c.engine().maxConnectionsPerChild(), "an absolute path");
        assertEquals(DEFAULT_THREADS, threads(parse("<IfFile conf/extra.conf>\nThreadsPerChild 7\n</IfFile>\n")),
                "without the ServerRoot line, conf/ is looked for beside the file");
    }

    @Test
    void commandLineOptionsTakeSectionsAndDefines() throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, "<IfDefine FromC>\nThreadsPerChild 9\n</IfDefine>\n");
        LoomConfig c = new ConfigParser(DirectiveTable.standard(), Map.of()).parse(new ConfigParser.Source(f, null,
                List.of("Define FromC"), List.of("<IfDefine FromC>", "StartServers 3", "</IfDefine>")));
        assertEquals(9, threads(c));
        assertEquals(3, c.engine().startServers(), "a section over several -c options");
        ConfigException e = assertThrows(ConfigException.class, () -> new ConfigParser(DirectiveTable.standard())
                .parse(new ConfigParser.Source(f, null, List.of(), List.of("<IfDefine X>"))));
        assertEquals("-c option", e.source());
        assertEquals("<IfDefine> was not closed.", e.getMessage());
    }
}
