package org.loommpm.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Median and min–max cells for the result tables. {@code NaN} values (missing runs) are ignored. */
final class Stats {
    private Stats() {
    }

    /** The values of {@code f} over {@code items}, without NaNs. */
    static <T> double[] values(List<T> items, ToDoubleFunction<T> f) {
        return items == null ? new double[0] : items.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).toArray();
    }

    static double median(double[] v) {
        if (v == null || v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    /** {@code median (min–max)}, or just the value for one run, or — for none. */
    static String cell(double[] v, String fmt) {
        if (v.length == 0) {
            return "—";
        }
        String s = String.format(Locale.ROOT, fmt, median(v));
        if (v.length > 1) {
            s += " (" + String.format(Locale.ROOT, fmt, min(v)) + "–" + String.format(Locale.ROOT, fmt, max(v)) + ")";
        }
        return s;
    }

    /** {@code a / b} as {@code 1.23×}, or — when either is missing. */
    static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "—" : String.format(Locale.ROOT, "%.2f×", a / b);
    }
}
