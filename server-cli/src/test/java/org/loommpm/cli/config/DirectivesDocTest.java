package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The directive tables of docs/configuration*.md against the parser: every directive the standard
 * table registers, and every section the parser opens, has a row, and every row names one that
 * exists; the same for the {@code key=value} parameters of {@code ProxyPass}, {@code BalancerMember}
 * and {@code ProxySet}. An operator reads the tables to write a file the parser must accept.
 */
class DirectivesDocTest {
    private static final Path SRC = Path.of("src", "main", "java", "org", "loommpm", "cli", "config");
    /** A name in a table's first column: {@code `Listen`}, or a section's {@code `<Location>`}. */
    private static final Pattern NAME = Pattern.compile("`<?([A-Za-z][A-Za-z0-9]*)>?`");
    /** The parser's own keywords: {@code case "<location" ->} in ConfigParser.apply. */
    private static final Pattern KEYWORDS = Pattern.compile("case (\"[^\"]+\"(?:, \"[^\"]+\")*) ->");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
    /** A parameter's switch label; not an lbmethod value, whose arm yields an {@code LbMethod}. */
    private static final Pattern PARAM = Pattern.compile("case (\"[a-z]+\"(?:, \"[a-z]+\")*) -> (?!LbMethod)");

    @Test
    void everyDirectiveHasARowAndEveryRowADirective() throws IOException {
        List<DocTables.Table> tables = DocTables.read();
        List<String> headless = new ArrayList<>();
        Map<String, String> defined = new TreeMap<>();
        Map<String, String> mentioned = new TreeMap<>();
        Map<String, Set<DirectiveTable.Context>> contexts = new TreeMap<>();
        for (DocTables.Table t : tables) {
            if (t.header().isEmpty()) {
                headless.add(t.file() + " line " + t.line());
                continue;
            }
            if (!t.header().get(0).equals("directive")) {
                continue;
            }
            // A table with a default column defines its directives; others (the file ranges) refer back.
            boolean defining = t.column("default") >= 0;
            int context = t.column("context");
            for (List<String> row : t.rows()) {
                Matcher m = NAME.matcher(row.get(0));
                while (m.find()) {
                    String spelled = m.group(1);
                    String key = spelled.toLowerCase(Locale.ROOT);
                    mentioned.put(key, spelled);
                    if (defining) {
                        defined.put(key, spelled);
                        // The engine's tables have no context column: all of them are server config.
                        contexts.put(key, context < 0 ? DirectiveTable.SERVER : contexts(row.get(context)));
                    }
                }
            }
        }
        assertEquals(List.of(), headless, "tables without a header row render as plain text");

        Map<String, String> registered = new TreeMap<>();
        for (DirectiveTable.Directive d : DirectiveTable.standard().all()) {
            registered.put(d.name().toLowerCase(Locale.ROOT), d.name());
        }
        for (String keyword : parserKeywords()) {
            registered.put(keyword, keyword);
        }
        Set<String> undocumented = new TreeSet<>(registered.keySet());
        undocumented.removeAll(defined.keySet());
        assertEquals(Set.of(), names(undocumented, registered), "registered, but without a row in docs/configuration*.md");
        Set<String> stale = new TreeSet<>(mentioned.keySet());
        stale.removeAll(registered.keySet());
        assertEquals(Set.of(), names(stale, mentioned), "in the directive tables of docs/configuration*.md, but not registered");
        List<String> misspelled = new ArrayList<>();
        List<String> wrongContext = new ArrayList<>();
        for (DirectiveTable.Directive d : DirectiveTable.standard().all()) {
            String key = d.name().toLowerCase(Locale.ROOT);
            if (!d.name().equals(defined.get(key))) {
                misspelled.add(defined.get(key) + " (registered as " + d.name() + ")");
            }
            if (!d.contexts().equals(contexts.get(key))) {
                wrongContext.add(d.name() + " documented in " + contexts.get(key) + ", allowed in " + d.contexts());
            }
        }
        assertEquals(List.of(), misspelled, "spelt otherwise than the parser's messages spell them");
        assertEquals(List.of(), wrongContext, "the context column against where the parser allows them");
        assertTrue(registered.size() > 100, "the table was read: " + registered.size());
    }

    @Test
    void everyProxyParameterHasARowAndEveryRowAParameter() throws IOException {
        String params = Files.readString(SRC.resolve("ProxyParams.java"));
        Set<String> upgrade = new TreeSet<>();
        Matcher u = Pattern.compile("kv\\[0]\\.equals\\(\"([a-z]+)\"\\)")
                .matcher(Files.readString(SRC.resolve("ProxyDirectives.java")));
        while (u.find()) {
            upgrade.add(u.group(1));
        }
        Map<String, Set<String>> code = Map.of(
                "Member parameters", labels(method(params, "static void member(")),
                "Balancer parameters", labels(method(params, "static void balancer(")),
                "Upgrades", upgrade);
        Map<String, Set<String>> doc = new TreeMap<>();
        for (DocTables.Table t : DocTables.read()) {
            if (!t.header().isEmpty() && t.header().get(0).equals("parameter")) {
                String caption = code.keySet().stream().filter(t.caption()::startsWith).findFirst()
                        .orElse("unknown: " + t.caption());
                Set<String> names = doc.computeIfAbsent(caption, k -> new TreeSet<>());
                for (List<String> row : t.rows()) {
                    names.add(row.get(0).replace("`", ""));
                }
            }
        }
        assertEquals(new TreeMap<>(code), doc, "ProxyParams' and ProxyDirectives' parameters (left), "
                + "the parameter tables of docs/configuration*.md (right)");
        assertTrue(code.get("Member parameters").size() > 10, "the member switch was read");
    }

    /** A context cell ({@code server config, location (httpd: server only)}) as the parser's contexts. */
    private static Set<DirectiveTable.Context> contexts(String cell) {
        String c = cell.replaceAll("\\([^)]*\\)", "").toLowerCase(Locale.ROOT);
        Set<DirectiveTable.Context> out = new TreeSet<>();
        if (c.contains("server")) {
            out.add(DirectiveTable.Context.SERVER);
        }
        if (c.contains("location")) {
            out.add(DirectiveTable.Context.LOCATION);
        }
        if (c.contains("proxy")) {
            out.add(DirectiveTable.Context.PROXY);
        }
        return out;
    }

    /** The lowercased words ConfigParser.apply handles itself (sections, includes), closing tags left out. */
    private static Set<String> parserKeywords() throws IOException {
        Set<String> out = new TreeSet<>();
        Matcher c = KEYWORDS.matcher(method(Files.readString(SRC.resolve("ConfigParser.java")), "private void apply("));
        while (c.find()) {
            Matcher q = QUOTED.matcher(c.group(1));
            while (q.find()) {
                if (!q.group(1).startsWith("</")) {
                    out.add(q.group(1).replace("<", ""));
                }
            }
        }
        assertTrue(out.contains("location"), "ConfigParser.apply was read: " + out);
        return out;
    }

    /** A method's text: from its signature to the first closing brace at the class's member indent. */
    private static String method(String src, String signature) {
        int start = src.indexOf(signature);
        assertTrue(start >= 0, signature);
        return src.substring(start, src.indexOf("\n    }\n", start));
    }

    private static Set<String> labels(String body) {
        Set<String> out = new TreeSet<>();
        Matcher c = PARAM.matcher(body);
        while (c.find()) {
            Matcher q = QUOTED.matcher(c.group(1));
            while (q.find()) {
                out.add(q.group(1));
            }
        }
        return out;
    }

    private static Set<String> names(Set<String> keys, Map<String, String> spelling) {
        Set<String> out = new TreeSet<>();
        for (String k : keys) {
            out.add(spelling.get(k));
        }
        return out;
    }
}
