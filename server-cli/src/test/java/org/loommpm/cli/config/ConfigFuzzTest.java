package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fuzzes the configuration file reader: {@link ConfigLexer} and {@link ConfigParser} with the
 * standard {@link DirectiveTable}. Without {@code JAZZER_FUZZ} it replays
 * {@code ConfigFuzzTestInputs/config} (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is a {@link ConfigException} (a located message for the
 * operator, never a stack trace from a directive's argument conversion); the lexer's lines,
 * written out again with every word quoted, lex to the same directives and arguments.
 *
 * <p>Texts naming {@code Include}, {@code IncludeOptional} or {@code TypesConfig} are left out:
 * those read files named in the text (anything on this machine, /dev/zero included), so they
 * would fuzz the file system rather than the parser; ConfigParserTest covers them.
 */
class ConfigFuzzTest {
    private final ConfigParser parser = new ConfigParser(DirectiveTable.standard());

    @FuzzTest(maxDuration = "10m")
    void config(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.contains("include") || lower.contains("typesconfig")) {
            return;
        }
        List<ConfigLine> lines;
        try {
            lines = lex(text);
        } catch (ConfigException e) {
            return;
        }
        try {
            List<ConfigLine> again = lex(render(lines));
            assertEquals(words(lines), words(again), "written-out lines lex differently");
        } catch (ConfigException e) {
            throw new AssertionError("written-out lines do not lex: " + e.report(), e);
        }
        try {
            parser.parse(new ConfigParser.Source(null, text, List.of(), List.of()));
        } catch (ConfigException expected) {
            // A located configuration error is the documented outcome for a bad file.
        }
    }

    /** Every line of {@code text} split into words, unexpanded. */
    private static List<ConfigLine> lex(String text) throws ConfigException {
        List<ConfigLine> out = new ArrayList<>();
        for (ConfigLexer.Line l : ConfigLexer.lines("fuzz", text)) {
            ConfigLine words = ConfigLexer.split(l);
            if (words != null) {
                out.add(words);
            }
        }
        return out;
    }

    private static String render(List<ConfigLine> lines) {
        StringBuilder sb = new StringBuilder();
        for (ConfigLine l : lines) {
            sb.append(quote(l.name()));
            for (String a : l.args()) {
                sb.append(' ').append(quote(a));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String quote(String w) {
        return '"' + w.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static List<List<String>> words(List<ConfigLine> lines) {
        List<List<String>> out = new ArrayList<>();
        for (ConfigLine l : lines) {
            List<String> w = new ArrayList<>();
            w.add(l.name());
            w.addAll(l.args());
            out.add(w);
        }
        return out;
    }
}
