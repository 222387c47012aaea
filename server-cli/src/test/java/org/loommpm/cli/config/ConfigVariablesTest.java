package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ${name}} in configuration lines: from {@code Define}, else the environment, as httpd 2.4. */
class ConfigVariablesTest {
    private static final Map<String, String> ENV = Map.of(
            "LOOM_HOST", "env.example",
            "LOOM_REF", "${LOOM_HOST}",
            "LOOM_EMPTY", "",
            "LOOM_HASH", "#");

    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return parse(text, List.of(), List.of());
    }

    private LoomConfig parse(String text, List<String> before, List<String> after) throws Exception {
        Path f = dir.resolve("loom.conf");
        Files.writeString(f, text);
        return new ConfigParser(DirectiveTable.standard(), ENV).parse(new ConfigParser.Source(f, null, before, after));
    }

    private String file() throws Exception {
        return dir.resolve("loom.conf").toRealPath().toString();
    }

    @Test
    void aDefinedValueThenTheEnvironment() throws Exception {
        assertEquals("defined.example", parse("Define host defined.example\nServerName ${host}\n").site().serverName());
        assertEquals("env.example", parse("ServerName ${LOOM_HOST}\n").site().serverName());
        assertEquals("defined.example", parse("Define LOOM_HOST defined.example\nServerName ${LOOM_HOST}\n")
                .site().serverName(), "a Define wins over the environment");
        assertEquals("x.example", parse("Define Host x.example\nServerName ${HOST}\n").site().serverName(),
                "variable names ignore case, as httpd's table of them");
        assertEquals("www.env.example:8080", parse("Define port 8080\nServerName www.${LOOM_HOST}:${port}\n")
                .site().serverName(), "several in one argument");
        LoomConfig c = parse("Define host a.example\nUnDefine host\nServerName ${host}\n");
        assertEquals("${host}", c.site().serverName(), "UnDefine takes the value away");
        assertEquals(1, c.warnings().size(), c.warnings().toString());
    }

    @Test
    void anUndefinedVariableIsLeftAndWarnedAbout() throws Exception {
        LoomConfig c = parse("# a comment\nServerName ${NOT_SET_ANYWHERE}\n");
        assertEquals("${NOT_SET_ANYWHERE}", c.site().serverName());
        assertEquals(List.of("line 2 of " + file() + ": Config variable ${NOT_SET_ANYWHERE} is not defined"),
                c.warnings());
        c = parse("Define Flag\nServerName ${Flag}\n");
        assertEquals("${Flag}", c.site().serverName(), "Define without a value defines no variable");
        assertEquals(1, c.warnings().size());
        c = parse("ServerName ${map:key}\n");
        assertEquals("${map:key}", c.site().serverName());
        assertEquals(List.of(), c.warnings(), "no warning for a name with ':', as httpd");
        assertEquals("a$b${c", parse("ServerName a$b${c\n").site().serverName(), "no closing brace: as written");
        assertEquals(List.of("line 1 of -c option: Config variable ${NOPE} is not defined"),
                parse("", List.of(), List.of("ServerName ${NOPE}")).warnings());
    }

    @Test
    void aValueIsNotExpandedAgain() throws Exception {
        LoomConfig c = parse("ServerName ${LOOM_REF}\n");
        assertEquals("${LOOM_HOST}", c.site().serverName());
        assertEquals(List.of(), c.warnings());
        assertEquals("one", parse("Define a one\nDefine b ${a}\nDefine a two\nServerName ${b}\n").site().serverName(),
                "a Define's value is expanded once, when it is read");
    }

    /** httpd expands the whole line before splitting it into arguments: a value's blanks and quotes count. */
    @Test
    void expansionComesBeforeSplittingIntoArguments() throws Exception {
        String define = "Define pages \"index.html home.html\"\n";
        assertEquals(List.of("index.html", "home.html"),
                parse(define + "DirectoryIndex ${pages}\n").site().directoryIndex());
        assertEquals(List.of("index.html home.html"),
                parse(define + "DirectoryIndex \"${pages}\"\n").site().directoryIndex());
        assertEquals(List.of("index.html home.html"),
                parse(define + "DirectoryIndex '${pages}'\n").site().directoryIndex(), "single quotes too");
        assertEquals(List.of("my page.html"),
                parse("Define quoted '\"my page.html\"'\nDirectoryIndex ${quoted}\n").site().directoryIndex(),
                "quotes inside a value quote");
        assertEquals(2, parse("Define d StartServers\n${d} 2\n").engine().startServers(), "the directive's name too");
        assertEquals(3, parse("Define mode Prod\nDefine Prod\n<IfDefine ${mode}>\nStartServers 3\n</IfDefine>\n")
                .engine().startServers(), "a section's argument");
        assertEquals(4, parse("${LOOM_EMPTY}\n${LOOM_EMPTY} StartServers 4\n").engine().startServers(),
                "a line left empty is no line");
        ConfigException e = assertThrows(ConfigException.class, () -> parse("${LOOM_HASH} StartServers 5\n"));
        assertTrue(e.getMessage().startsWith("Invalid command '#'"), "comments are found before expansion: "
                + e.getMessage());
    }

    @Test
    void commandLineLinesAreExpandedToo() throws Exception {
        LoomConfig c = parse("ServerName ${late}\n", List.of("Define late c.example"), List.of("ServerName ${late}x"));
        assertEquals("c.examplex", c.site().serverName());
    }
}
