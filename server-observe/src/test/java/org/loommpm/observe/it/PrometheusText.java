package org.loommpm.observe.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A strict parser for the Prometheus text exposition format 0.0.4, following the format's
 * specification line by line: {@code # HELP} and {@code # TYPE} lines (at most one of each per
 * metric, TYPE before the metric's first sample, a known type), sample lines (metric name,
 * optional label set with the three allowed escapes, a Go float value, optional integer
 * timestamp), every family's samples contiguous, no duplicate series, no duplicate label in a
 * series, reserved {@code __} label names rejected, summary and histogram suffixes resolved to
 * their family, the text ending with a newline. Any violation throws with the line number.
 */
final class PrometheusText {
    /** One sample. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern FLOAT = Pattern.compile(
            "[+-]?(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Inf|inf|NaN)");
    private static final Pattern TIMESTAMP = Pattern.compile("-?[0-9]+");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    private final Map<String, String> types = new HashMap<>();
    private final Set<String> helps = new HashSet<>();
    private final Set<String> finishedFamilies = new HashSet<>();
    private final Set<String> series = new HashSet<>();
    private final List<Sample> samples = new ArrayList<>();
    private String currentFamily;
    private int lineNo;

    private PrometheusText() {
    }

    /** Parses {@code text} strictly; throws {@link AssertionError} on the first violation. */
    static List<Sample> parse(String text) {
        return new PrometheusText().run(text);
    }

    private List<Sample> run(String text) {
        if (text.isEmpty()) {
            return samples;
        }
        if (!text.endsWith("\n")) {
            fail("the exposition must end with a line feed");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) {
                continue; // the format ignores empty lines
            }
            if (line.startsWith("#")) {
                comment(line);
            } else {
                sample(line);
            }
        }
        return samples;
    }

    private void comment(String line) {
        String[] t = line.split(" ", 4);
        if (t.length >= 3 && t[0].equals("#") && (t[1].equals("HELP") || t[1].equals("TYPE"))) {
            String name = t[2];
            if (!METRIC_NAME.matcher(name).matches()) {
                fail("invalid metric name in " + t[1] + ": " + name);
            }
            if (t[1].equals("HELP")) {
                if (!helps.add(name)) {
                    fail("second HELP for " + name);
                }
                checkHelpEscapes(t.length == 4 ? t[3] : "");
            } else {
                if (t.length != 4 || !TYPES.contains(t[3])) {
                    fail("TYPE needs one of " + TYPES + ": " + line);
                }
                if (types.putIfAbsent(name, t[3]) != null) {
                    fail("second TYPE for " + name);
                }
                if (finishedFamilies.contains(name) || name.equals(currentFamily)) {
                    fail("TYPE for " + name + " after its samples");
                }
            }
        }
        // Any other line starting with # is a comment.
    }

    private void checkHelpEscapes(String doc) {
        for (int i = 0; i < doc.length(); i++) {
            if (doc.charAt(i) == '\\') {
                if (i + 1 >= doc.length() || (doc.charAt(i + 1) != '\\' && doc.charAt(i + 1) != 'n')) {
                    fail("HELP allows only \\\\ and \\n escapes: " + doc);
                }
                i++;
            }
        }
    }

    private void sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        if (!METRIC_NAME.matcher(name).matches()) {
            fail("invalid metric name: " + name);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            fail("expected a space before the value");
        }
        String[] rest = line.substring(i + 1).split(" ", -1);
        if (rest.length < 1 || rest.length > 2 || !FLOAT.matcher(rest[0]).matches()) {
            fail("invalid value or trailing text: " + line.substring(i + 1));
        }
        if (rest.length == 2 && !TIMESTAMP.matcher(rest[1]).matches()) {
            fail("invalid timestamp: " + rest[1]);
        }
        String family = family(name, labels);
        if (!family.equals(currentFamily)) {
            if (finishedFamilies.contains(family)) {
                fail("samples of " + family + " are not contiguous");
            }
            if (currentFamily != null) {
                finishedFamilies.add(currentFamily);
            }
            currentFamily = family;
        }
        if (!series.add(name + labels)) {
            fail("duplicate series " + name + labels);
        }
        samples.add(new Sample(name, Map.copyOf(labels), value(rest[0])));
    }

    /** Parses {@code name="value",...}} from {@code i}; returns the index after the closing brace. */
    private int labels(String line, int i, Map<String, String> out) {
        while (true) {
            if (i >= line.length()) {
                fail("unterminated label set");
            }
            if (line.charAt(i) == '}') {
                return i + 1;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0) {
                fail("label without '='");
            }
            String label = line.substring(i, eq);
            if (!LABEL_NAME.matcher(label).matches() || label.startsWith("__")) {
                fail("invalid or reserved label name: " + label);
            }
            if (eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                fail("label value must be quoted: " + label);
            }
            StringBuilder v = new StringBuilder();
            int j = eq + 2;
            for (;; j++) {
                if (j >= line.length()) {
                    fail("unterminated label value for " + label);
                }
                char c = line.charAt(j);
                if (c == '"') {
                    break;
                }
                if (c == '\\') {
                    char e = j + 1 < line.length() ? line.charAt(j + 1) : 0;
                    switch (e) {
                        case '\\' -> v.append('\\');
                        case '"' -> v.append('"');
                        case 'n' -> v.append('\n');
                        default -> fail("invalid escape in label value of " + label);
                    }
                    j++;
                } else {
                    v.append(c);
                }
            }
            if (out.put(label, v.toString()) != null) {
                fail("duplicate label " + label);
            }
            i = j + 1;
            if (i < line.length() && line.charAt(i) == ',') {
                i++;
            } else if (i >= line.length() || line.charAt(i) != '}') {
                fail("expected ',' or '}' after label " + label);
            }
        }
    }

    /** The family a sample belongs to: summaries and histograms own their suffixed samples. */
    private String family(String name, Map<String, String> labels) {
        for (String suffix : new String[] {"_sum", "_count", "_bucket"}) {
            if (name.endsWith(suffix)) {
                String base = name.substring(0, name.length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || ("summary".equals(type) && !suffix.equals("_bucket"))) {
                    if (suffix.equals("_bucket") && !labels.containsKey("le")) {
                        fail("histogram bucket without le: " + name);
                    }
                    return base;
                }
            }
        }
        String type = types.get(name);
        if ("histogram".equals(type)) {
            fail("a histogram has no unsuffixed sample: " + name);
        }
        if ("summary".equals(type) && !labels.containsKey("quantile")) {
            fail("a summary's unsuffixed sample needs a quantile: " + name);
        }
        return name;
    }

    private static double value(String s) {
        return switch (s) {
            case "+Inf", "Inf", "inf", "+inf" -> Double.POSITIVE_INFINITY;
            case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
            case "NaN", "+NaN", "-NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }

    private void fail(String why) {
        throw new AssertionError("Prometheus text, line " + lineNo + ": " + why);
    }

    /** The value of the one sample named {@code name} whose labels include {@code labels}. */
    static double value(List<Sample> samples, String name, String... labels) {
        Sample found = null;
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean match = true;
            for (int k = 0; k < labels.length; k += 2) {
                match &= labels[k + 1].equals(s.labels().get(labels[k]));
            }
            if (match) {
                if (found != null) {
                    throw new AssertionError("more than one sample " + name + " with " + List.of(labels));
                }
                found = s;
            }
        }
        if (found == null) {
            throw new AssertionError("no sample " + name + " with " + List.of(labels));
        }
        return found.value();
    }
}
