package org.loommpm.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A dependency-free SVG chart of the results: one panel per metric, one horizontal bar per
 * server at its median, with a whisker over the min–max of the rounds.
 */
final class Chart {
    private static final int WIDTH = 860;
    private static final int LABEL = 110;
    private static final int BAR_AREA = 560;
    private static final int ROW = 22;
    private static final Map<String, String> COLORS = Map.of(
            "loom", "#d9480f", "loom-noac", "#f59f00", "helidon", "#1c7ed6", "jetty", "#2f9e44", "netty", "#7048e8");

    /** One metric: server → values of the rounds. */
    record Panel(String title, String unit, boolean higherIsBetter, Map<String, double[]> byServer) {
    }

    private Chart() {
    }

    static String svg(String title, List<Panel> panels) {
        StringBuilder body = new StringBuilder();
        int y = 40;
        for (Panel p : panels) {
            y = panel(body, p, y) + 16;
        }
        return String.format(Locale.ROOT, """
                <svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">
                <rect width="100%%" height="100%%" fill="white"/>
                <text x="10" y="22" font-size="15" font-weight="bold">%s</text>
                %s</svg>
                """, WIDTH, y, escape(title), body);
    }

    private static int panel(StringBuilder out, Panel p, int y) {
        double scale = 0;
        for (double[] v : p.byServer().values()) {
            scale = Math.max(scale, Stats.max(v));
        }
        if (!(scale > 0)) {
            return y;
        }
        out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s (%s, %s)</text>%n",
                y + 12, escape(p.title()), escape(p.unit()), p.higherIsBetter() ? "higher is better" : "lower is better"));
        y += 20;
        for (var e : p.byServer().entrySet()) {
            double[] v = e.getValue();
            out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">%s</text>%n", y + 14, escape(e.getKey())));
            if (v.length > 0) {
                double med = Stats.median(v);
                int w = (int) Math.round(BAR_AREA * med / scale);
                int lo = LABEL + (int) Math.round(BAR_AREA * Stats.min(v) / scale);
                int hi = LABEL + (int) Math.round(BAR_AREA * Stats.max(v) / scale);
                out.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\"/>%n"
                                + "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>%n"
                                + "<text x=\"%d\" y=\"%d\">%s</text>%n",
                        LABEL, y + 2, Math.max(w, 1), COLORS.getOrDefault(e.getKey(), "#868e96"),
                        lo, hi, y + 10, y + 10, Math.max(hi, LABEL + w) + 6, y + 14, format(med)));
            }
            y += ROW;
        }
        return y;
    }

    private static String format(double v) {
        return v >= 1000 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
