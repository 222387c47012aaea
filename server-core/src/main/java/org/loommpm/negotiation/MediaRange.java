package org.loommpm.negotiation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One element of an {@code Accept} field (RFC 9110 §12.5.1): a media range ({@code text/html},
 * {@code text/*}, {@code *}{@code /*}) with its parameters and q-value; or, read with
 * {@link #parse(String)}, a media type a handler offers. Type, subtype and parameter names are
 * lowercase; parameter values are kept as sent (unquoted). Immutable.
 */
public final class MediaRange {
    private final String type;
    private final String subtype;
    private final Map<String, String> parameters;
    private final double quality;

    private MediaRange(String type, String subtype, Map<String, String> parameters, double quality) {
        this.type = type;
        this.subtype = subtype;
        this.parameters = parameters;
        this.quality = quality;
    }

    /**
     * Reads an {@code Accept} field value. Elements that are not a media range ({@code html},
     * {@code *}{@code /html}, {@code text/}) are skipped; a lone {@code *}, which old clients send,
     * is read as {@code *}{@code /*}. Parameters after {@code q} are accept extensions and are left
     * out. Never throws.
     *
     * @param accept the field value (several fields joined with commas), or null
     * @return the ranges in the order sent; empty for null, an empty value, or nothing readable
     */
    public static List<MediaRange> parseAccept(String accept) {
        List<MediaRange> out = new ArrayList<>();
        for (Lists.Element e : Lists.parse(accept)) {
            MediaRange r = of(e, true);
            if (r != null) {
                out.add(r);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Reads one media type, such as a handler offers ({@code application/json},
     * {@code text/html; charset=UTF-8}). A {@code q} parameter, if any, is its quality.
     *
     * @param mediaType a media type
     * @return the media type
     * @throws IllegalArgumentException if it is not {@code type/subtype} with optional parameters
     */
    public static MediaRange parse(String mediaType) {
        List<Lists.Element> elements = Lists.parse(mediaType);
        MediaRange r = elements.size() == 1 ? of(elements.get(0), false) : null;
        if (r == null) {
            throw new IllegalArgumentException("not a media type: " + mediaType);
        }
        return r;
    }

    private static MediaRange of(Lists.Element e, boolean range) {
        String v = e.value();
        if (range && v.equals("*")) {
            v = "*/*";
        }
        int slash = v.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String type = v.substring(0, slash).strip().toLowerCase(Locale.ROOT);
        String subtype = v.substring(slash + 1).strip().toLowerCase(Locale.ROOT);
        if (!Lists.isToken(type) || !Lists.isToken(subtype) || type.equals("*") && !subtype.equals("*")
                || !range && (type.equals("*") || subtype.equals("*"))) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < e.names().size(); i++) {
            params.putIfAbsent(e.names().get(i), e.values().get(i));
        }
        return new MediaRange(type, subtype, Collections.unmodifiableMap(params), e.quality());
    }

    /** {@return the type, lowercase; {@code *} for any} */
    public String type() {
        return type;
    }

    /** {@return the subtype, lowercase; {@code *} for any} */
    public String subtype() {
        return subtype;
    }

    /** {@return the parameters other than {@code q}, names lowercase, in the order sent} */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** {@return the q-value in [0, 1]: 1 when none was given, 0 for one that could not be read} */
    public double quality() {
        return quality;
    }

    /**
     * Whether this range includes a media type: the same type (or {@code *}), the same subtype
     * (or {@code *}), and each of this range's parameters present in the type with the same
     * value (compared without regard to case, as {@code charset} values are).
     *
     * @param mediaType a media type, as {@link #parse(String)} reads one
     * @return whether it is in this range
     */
    public boolean includes(MediaRange mediaType) {
        if (!type.equals("*") && !type.equals(mediaType.type)
                || !subtype.equals("*") && !subtype.equals(mediaType.subtype)) {
            return false;
        }
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            String v = mediaType.parameters.get(p.getKey());
            if (v == null || !v.equalsIgnoreCase(p.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * How specific this range is, for choosing among several that include one type (the most
     * specific one gives its q-value, RFC 9110 §12.5.1): 0 for {@code *}{@code /*}, 1 for
     * {@code type/*}, 2 for {@code type/subtype}, plus one per parameter.
     *
     * @return the specificity, 0 or more
     */
    public int specificity() {
        return type.equals("*") ? 0 : subtype.equals("*") ? 1 : 2 + parameters.size();
    }

    /** {@return the range as a field would carry it, with its q-value when it is not 1} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(type).append('/').append(subtype);
        parameters.forEach((k, v) -> sb.append(';').append(k).append('=').append(v));
        if (quality != 1) {
            sb.append(";q=").append(quality);
        }
        return sb.toString();
    }
}
