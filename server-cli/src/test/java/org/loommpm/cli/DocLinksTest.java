package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the documentation leads somewhere: the file exists and, for a link to
 * a Markdown section, the page has a heading with that anchor (GitHub's rule: lower case, only
 * letters, marks, digits, {@code _}, {@code -} and spaces kept, spaces as {@code -}, a repeated
 * anchor numbered). Pages move and split; a link into one that did not follow is caught here.
 * The pages: README.md, benchmarks/README.md, docs/ and docs/benchmarks/log/; the result tables
 * under docs/benchmarks/ are written by the harness and left out.
 */
class DocLinksTest {
    private static final Path ROOT = Path.of("..");
    /** {@code [text](target)} and {@code ![alt](target)}; the target has no blank. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"),
                ROOT.resolve("benchmarks/README.md")));
        pages.addAll(markdown(ROOT.resolve("docs")));
        pages.addAll(markdown(ROOT.resolve("docs/benchmarks/log")));
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            int n = 0;
            for (String line : prose(Files.readAllLines(page))) {
                n++;
                if (line == null) {
                    continue;
                }
                Matcher m = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue; // http:, https:, mailto:
                    }
                    links++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(page) + ":" + n + ": " + target;
                    if (!Files.exists(to)) {
                        broken.add(where + " (no such file)");
                    } else if (hash >= 0 && to.toString().endsWith(".md")
                            && !anchors(to).contains(target.substring(hash + 1))) {
                        broken.add(where + " (no such heading)");
                    }
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue(links > 300, "the links were found: " + links);
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertEquals("as-a-balancer-reverse-proxy", anchor("As a balancer (reverse proxy)"));
        assertEquals("the-reverse-proxy-orgloommpmproxy", anchor("The reverse proxy (`org.loommpm.proxy`)"));
        assertEquals("issue-20-2026-12-03-1321-1407-utc-c50-h2c-501",
                anchor("Issue #20, 2026-12-03 13:21-14:07 UTC: c50, h2c 50×1"));
        assertEquals("auto", anchor("`?auto`"));
    }

    private static List<Path> markdown(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
    }

    /** The lines, with those inside fenced code blocks (and the fences) as null. */
    private static List<String> prose(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean fence = false;
        for (String l : lines) {
            boolean marker = l.startsWith("```");
            out.add(fence || marker ? null : l);
            fence ^= marker;
        }
        return out;
    }

    private Set<String> anchors(Path page) throws IOException {
        Set<String> known = anchors.get(page);
        if (known == null) {
            known = new HashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            for (String line : prose(Files.readAllLines(page))) {
                Matcher h = line == null ? null : HEADING.matcher(line);
                if (h != null && h.matches()) {
                    String a = anchor(h.group(1));
                    int count = seen.merge(a, 1, Integer::sum);
                    known.add(count == 1 ? a : a + "-" + (count - 1));
                }
            }
            anchors.put(page, known);
        }
        return known;
    }

    /** A heading's anchor: its link texts without their targets, then GitHub's rule. */
    private static String anchor(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").strip()
                .toLowerCase(Locale.ROOT);
        return NOT_IN_ANCHOR.matcher(text).replaceAll("").replace(' ', '-');
    }
}
