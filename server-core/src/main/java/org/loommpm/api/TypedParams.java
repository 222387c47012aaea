package org.loommpm.api;

import java.util.Locale;
import java.util.UUID;

/**
 * Converts a path or query parameter to the type a handler asks for ({@link
 * Request#pathParam(String, Class)}, {@link Request#queryParam(String, Class)}). A value that is
 * not of the type is the client's error: an {@link HttpException} 400 whose message (for the
 * log, LM0406) starts with its id. Strict where the JDK's parsers are lenient: numbers are ASCII
 * digits only (no Arabic-Indic digits, no {@code 1d}, no {@code NaN}), a UUID is the canonical
 * 36 characters, a boolean is {@code true} or {@code false}.
 */
final class TypedParams {
    /** Longest value converted to a number: more is not a number a handler can use. */
    private static final int MAX_NUMBER = 64;

    private TypedParams() {
    }

    /**
     * {@code value} as {@code type}.
     *
     * @param id the log id of a bad value (LM2760 path, LM2761 query)
     * @param kind "path" or "query", for the message
     */
    @SuppressWarnings("unchecked")
    static <T> T convert(String value, Class<T> type, String id, String kind, String name) {
        Object v;
        try {
            v = parse(value, type);
        } catch (NumberFormatException e) {
            v = null;
        }
        if (v == null) {
            throw new HttpException(400, id + " " + kind + " parameter '" + name + "': '" + shorten(value)
                    + "' is not " + describe(type));
        }
        return (T) v;
    }

    /** The value, null when it is not one of {@code type}. */
    private static Object parse(String s, Class<?> type) {
        if (type == String.class) {
            return s;
        } else if (type == int.class || type == Integer.class) {
            return integer(s) ? Integer.valueOf(Integer.parseInt(s)) : null;
        } else if (type == long.class || type == Long.class) {
            return integer(s) ? Long.valueOf(Long.parseLong(s)) : null;
        } else if (type == double.class || type == Double.class) {
            return decimal(s) ? Double.valueOf(Double.parseDouble(s)) : null;
        } else if (type == boolean.class || type == Boolean.class) {
            return s.equalsIgnoreCase("true") ? Boolean.TRUE : s.equalsIgnoreCase("false") ? Boolean.FALSE : null;
        } else if (type == UUID.class) {
            return uuid(s) ? UUID.fromString(s) : null;
        } else if (type.isEnum()) {
            return constant(s, type);
        }
        throw new IllegalArgumentException("no conversion to " + type.getName()
                + ": String, int, long, double, boolean (or their wrappers), UUID and enums are supported");
    }

    /** Whether the type is one {@link #convert} takes; throws IllegalArgumentException otherwise. */
    static void check(Class<?> type) {
        parse("", type);
    }

    /** An optional sign and 1 to 19 ASCII digits (parseInt/parseLong then check the range). */
    private static boolean integer(String s) {
        int start = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (s.length() == start || s.length() - start > 19) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** A decimal number in plain or scientific notation, ASCII only: no NaN, Infinity, hex or type suffix. */
    private static boolean decimal(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_NUMBER) {
            return false;
        }
        int i = s.charAt(0) == '-' || s.charAt(0) == '+' ? 1 : 0;
        int digits = 0;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
                i++;
            }
            int exp = 0;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
                exp++;
            }
            if (exp == 0) {
                return false;
            }
        }
        return i == n && Double.isFinite(Double.parseDouble(s));
    }

    /** 8-4-4-4-12 hex digits: {@link UUID#fromString} alone takes {@code 1-2-3-4-5}. */
    private static boolean uuid(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : Character.digit(c, 16) < 0 || c > 'f') {
                return false;
            }
        }
        return true;
    }

    /** The constant named exactly {@code s}, else the one named so ignoring case (if only one is), else null. */
    private static Object constant(String s, Class<?> type) {
        Object found = null;
        for (Object c : type.getEnumConstants()) {
            String name = ((Enum<?>) c).name();
            if (name.equals(s)) {
                return c;
            }
            if (name.equalsIgnoreCase(s)) {
                if (found != null) {
                    return null; // ambiguous without regard to case
                }
                found = c;
            }
        }
        return found;
    }

    private static String describe(Class<?> type) {
        if (type.isEnum()) {
            StringBuilder sb = new StringBuilder("one of ");
            Object[] cs = type.getEnumConstants();
            for (int i = 0; i < cs.length && i < 16; i++) {
                sb.append(i > 0 ? ", " : "").append(((Enum<?>) cs[i]).name());
            }
            return sb.append(cs.length > 16 ? ", ..." : "").toString();
        }
        String n = type.isPrimitive() ? type.getName() : type.getSimpleName().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "integer" -> "an int";
            case "int" -> "an int";
            case "uuid" -> "a UUID";
            default -> "a " + n;
        };
    }

    /** The value as the log shows it: at most 64 characters, control characters escaped. */
    private static String shorten(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 64) + 8);
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return s.length() > 64 ? sb.append("...").toString() : sb.toString();
    }

    /** Every line of a field joined with commas (RFC 9110 §5.3), or null when there is none. */
    static String joined(Headers headers, String name) {
        java.util.List<String> all = headers.all(name);
        return all.isEmpty() ? null : all.size() == 1 ? all.get(0) : String.join(", ", all);
    }
}
