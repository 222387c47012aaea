package org.loommpm.cookie;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * One {@code Set-Cookie} field (RFC 6265bis §4.1), built and checked so that what is sent is what
 * a browser stores: every rule a browser would silently apply by dropping the cookie (or an
 * attribute) is an {@link IllegalArgumentException} here, when the cookie is built.
 *
 * <pre>{@code
 * res.cookie(SetCookie.builder("session", token)
 *         .path("/").secure(true).httpOnly(true).sameSite(SetCookie.SameSite.LAX)
 *         .maxAge(Duration.ofHours(8)).build());
 * res.cookie(SetCookie.expire("session").path("/").secure(true).build()); // removes it
 * }</pre>
 *
 * <p>The rules: the name is an HTTP token; the value is {@code cookie-octet}s (US-ASCII without
 * controls, whitespace, {@code "}, {@code ,}, {@code ;} or {@code \}), optionally within one pair
 * of double quotes; name and value together at most 4096 characters; {@code Path} starts with
 * {@code /}, {@code Domain} is a host name, each at most 1024 characters without controls or
 * {@code ;}; {@code SameSite=None} and {@code Partitioned} need {@code Secure} (browsers refuse
 * them without it); a name starting {@code __Secure-} needs {@code Secure}, one starting
 * {@code __Host-} needs {@code Secure}, {@code Path=/} and no {@code Domain} (the prefixes are
 * matched without regard to case, as browsers do). Values are not encoded: an application that
 * needs other characters encodes them itself (base64url, percent-encoding).
 *
 * <p>Immutable and thread-safe.
 */
public final class SetCookie {
    /** RFC 6265bis §5.6: a user agent ignores a cookie whose name and value are longer. */
    private static final int MAX_NAME_VALUE = 4096;
    /** RFC 6265bis §5.6: a user agent ignores an attribute value longer than this. */
    private static final int MAX_ATTRIBUTE_VALUE = 1024;
    /** The earliest Expires a browser reads (RFC 6265bis §5.4.1: a year below 1601 fails). */
    private static final Instant FIRST_EXPIRES = Instant.parse("1601-01-01T00:00:00Z");
    /** IMF-fixdate has four digits for the year. */
    private static final Instant AFTER_LAST_EXPIRES = Instant.parse("+10000-01-01T00:00:00Z");
    /** IMF-fixdate (RFC 9110 §5.6.7): a two-digit day, English names, GMT. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /** The {@code SameSite} attribute's values (RFC 6265bis §4.1.2.7). */
    public enum SameSite {
        /** Sent only with requests from the cookie's own site. */
        STRICT("Strict"),
        /** Also sent with top-level navigations from other sites (a link followed). */
        LAX("Lax"),
        /** Sent with cross-site requests too; requires {@code Secure}. */
        NONE("None");

        private final String token;

        SameSite(String token) {
            this.token = token;
        }

        /** {@return the attribute's value as written: {@code Strict}, {@code Lax} or {@code None}} */
        public String token() {
            return token;
        }
    }

    private final String name;
    private final String value;
    private final Instant expires;
    private final Duration maxAge;
    private final String domain;
    private final String path;
    private final boolean secure;
    private final boolean httpOnly;
    private final SameSite sameSite;
    private final boolean partitioned;
    private final String headerValue;

    private SetCookie(Builder b) {
        name = b.name;
        value = b.value;
        expires = b.expires;
        maxAge = b.maxAge;
        domain = b.domain;
        path = b.path;
        secure = b.secure;
        httpOnly = b.httpOnly;
        sameSite = b.sameSite;
        partitioned = b.partitioned;
        headerValue = render();
    }

    /**
     * Starts a cookie.
     *
     * @param name the name: an HTTP token
     * @param value the value: cookie-octets, optionally in double quotes; may be empty
     * @return a builder with no attributes set
     * @throws IllegalArgumentException if the name or value is invalid (see the class comment)
     */
    public static Builder builder(String name, String value) {
        return new Builder(name, value);
    }

    /**
     * Starts a cookie that removes the one of this name: an empty value with {@code Max-Age=0}.
     * Give it the same {@code Path} and {@code Domain} as the cookie it removes.
     *
     * @param name the name of the cookie to remove
     * @return a builder with the value empty and {@code Max-Age=0}
     * @throws IllegalArgumentException if the name is not a token
     */
    public static Builder expire(String name) {
        return new Builder(name, "").maxAge(Duration.ZERO);
    }

    /** {@return the cookie's name} */
    public String name() {
        return name;
    }

    /** {@return the cookie's value, as it is sent} */
    public String value() {
        return value;
    }

    /** {@return the {@code Expires} attribute, or {@code null}} */
    public Instant expires() {
        return expires;
    }

    /** {@return the {@code Max-Age} attribute, or {@code null}} */
    public Duration maxAge() {
        return maxAge;
    }

    /** {@return the {@code Domain} attribute, or {@code null}} */
    public String domain() {
        return domain;
    }

    /** {@return the {@code Path} attribute, or {@code null}} */
    public String path() {
        return path;
    }

    /** {@return whether the {@code Secure} attribute is set} */
    public boolean secure() {
        return secure;
    }

    /** {@return whether the {@code HttpOnly} attribute is set} */
    public boolean httpOnly() {
        return httpOnly;
    }

    /** {@return the {@code SameSite} attribute, or {@code null}} */
    public SameSite sameSite() {
        return sameSite;
    }

    /** {@return whether the {@code Partitioned} attribute is set} */
    public boolean partitioned() {
        return partitioned;
    }

    /**
     * The {@code Set-Cookie} field value, e.g. {@code id=a3fWa; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Lax}.
     *
     * @return the field value (checked when the cookie was built)
     */
    public String toHeaderValue() {
        return headerValue;
    }

    /** {@return the same as {@link #toHeaderValue()}} */
    @Override
    public String toString() {
        return headerValue;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SetCookie c && c.headerValue.equals(headerValue);
    }

    @Override
    public int hashCode() {
        return headerValue.hashCode();
    }

    private String render() {
        StringBuilder sb = new StringBuilder(name.length() + value.length() + 64).append(name).append('=').append(value);
        if (expires != null) {
            sb.append("; Expires=").append(IMF_FIXDATE.format(expires));
        }
        if (maxAge != null) {
            sb.append("; Max-Age=").append(maxAge.getSeconds());
        }
        if (domain != null) {
            sb.append("; Domain=").append(domain);
        }
        if (path != null) {
            sb.append("; Path=").append(path);
        }
        if (secure) {
            sb.append("; Secure");
        }
        if (httpOnly) {
            sb.append("; HttpOnly");
        }
        if (sameSite != null) {
            sb.append("; SameSite=").append(sameSite.token());
        }
        if (partitioned) {
            sb.append("; Partitioned");
        }
        return sb.toString();
    }

    /**
     * Whether {@code name} is an HTTP token (RFC 9110 §5.6.2), what a cookie name must be.
     *
     * @param name the name
     * @return whether it is a non-empty token
     */
    public static boolean isValidName(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTchar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code value} may be sent as a cookie value: cookie-octets (RFC 6265bis §4.1.1),
     * optionally within one pair of double quotes.
     *
     * @param value the value
     * @return whether it is valid (the empty value is)
     */
    public static boolean isValidValue(String value) {
        if (value == null) {
            return false;
        }
        int from = 0;
        int to = value.length();
        if (to >= 2 && value.charAt(0) == '"' && value.charAt(to - 1) == '"') {
            from++;
            to--;
        }
        for (int i = from; i < to; i++) {
            if (!isCookieOctet(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTchar(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return c < 0x7F && "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** {@code %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E}. */
    private static boolean isCookieOctet(char c) {
        return c == 0x21 || (c >= 0x23 && c <= 0x2B) || (c >= 0x2D && c <= 0x3A) || (c >= 0x3C && c <= 0x5B)
                || (c >= 0x5D && c <= 0x7E);
    }

    private static boolean startsWithIgnoreCase(String s, String prefix) {
        return s.regionMatches(true, 0, prefix, 0, prefix.length());
    }

    /** Collects a cookie's attributes; {@link #build()} checks how they combine. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private final String value;
        private Instant expires;
        private Duration maxAge;
        private String domain;
        private String path;
        private boolean secure;
        private boolean httpOnly;
        private SameSite sameSite;
        private boolean partitioned;

        private Builder(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (!isValidName(name)) {
                throw new IllegalArgumentException("cookie name is not a token: " + printable(name));
            }
            if (!isValidValue(value)) {
                throw new IllegalArgumentException("cookie " + name + ": value is not cookie-octets: "
                        + printable(value));
            }
            if (name.length() + value.length() > MAX_NAME_VALUE) {
                throw new IllegalArgumentException("cookie " + name + ": name and value longer than "
                        + MAX_NAME_VALUE + " characters (browsers ignore it)");
            }
            this.name = name;
            this.value = value;
        }

        /**
         * Sets {@code Expires}: when the browser drops the cookie ({@code Max-Age} wins where both
         * are given).
         *
         * @param when the instant, written as an IMF-fixdate (seconds; years 1601-9999)
         * @return this builder
         * @throws IllegalArgumentException if the year is outside 1601-9999
         */
        public Builder expires(Instant when) {
            if (when != null && (when.isBefore(FIRST_EXPIRES) || !when.isBefore(AFTER_LAST_EXPIRES))) {
                throw new IllegalArgumentException("cookie " + name + ": Expires " + when + " outside the years 1601-9999");
            }
            this.expires = when;
            return this;
        }

        /**
         * Sets {@code Max-Age}: how long the browser keeps the cookie; zero removes it at once.
         *
         * @param age the duration, written in whole seconds, or {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative
         */
        public Builder maxAge(Duration age) {
            if (age != null && age.isNegative()) {
                throw new IllegalArgumentException("cookie " + name + ": negative Max-Age " + age);
            }
            this.maxAge = age;
            return this;
        }

        /**
         * Sets {@code Domain}: the cookie is then sent to that host and its subdomains (without
         * it, only to the host that set it).
         *
         * @param domain a host name (letters, digits, {@code -} and {@code .}; an internationalised
         *               name in its {@code xn--} form), or {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException if it is not a host name
         */
        public Builder domain(String domain) {
            if (domain != null) {
                if (domain.isEmpty() || domain.length() > MAX_ATTRIBUTE_VALUE) {
                    throw new IllegalArgumentException("cookie " + name + ": Domain empty or longer than "
                            + MAX_ATTRIBUTE_VALUE);
                }
                for (int i = 0; i < domain.length(); i++) {
                    char c = domain.charAt(i);
                    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
                            || c == '.')) {
                        throw new IllegalArgumentException("cookie " + name + ": Domain is not a host name: "
                                + printable(domain));
                    }
                }
            }
            this.domain = domain;
            return this;
        }

        /**
         * Sets {@code Path}: the cookie is sent only with requests whose path is under it.
         *
         * @param path starts with {@code /}; no control characters or {@code ;}; or {@code null}
         * @return this builder
         * @throws IllegalArgumentException if the path is invalid
         */
        public Builder path(String path) {
            if (path != null) {
                if (!path.startsWith("/") || path.length() > MAX_ATTRIBUTE_VALUE) {
                    throw new IllegalArgumentException("cookie " + name + ": Path must start with / and be at most "
                            + MAX_ATTRIBUTE_VALUE + " characters: " + printable(path));
                }
                for (int i = 0; i < path.length(); i++) {
                    char c = path.charAt(i);
                    if (c < 0x20 || c >= 0x7F || c == ';') {
                        throw new IllegalArgumentException("cookie " + name + ": Path holds a control character, "
                                + "a non-ASCII character or ';': " + printable(path));
                    }
                }
            }
            this.path = path;
            return this;
        }

        /**
         * Sets {@code Secure}: the cookie is sent only over https.
         *
         * @param secure whether to set it
         * @return this builder
         */
        public Builder secure(boolean secure) {
            this.secure = secure;
            return this;
        }

        /**
         * Sets {@code HttpOnly}: scripts in the page cannot read the cookie.
         *
         * @param httpOnly whether to set it
         * @return this builder
         */
        public Builder httpOnly(boolean httpOnly) {
            this.httpOnly = httpOnly;
            return this;
        }

        /**
         * Sets {@code SameSite}. {@link SameSite#NONE} needs {@link #secure(boolean) Secure}.
         *
         * @param sameSite the value, or {@code null} for none (browsers then treat it as Lax)
         * @return this builder
         */
        public Builder sameSite(SameSite sameSite) {
            this.sameSite = sameSite;
            return this;
        }

        /**
         * Sets {@code Partitioned} (CHIPS: the cookie is kept per top-level site). Needs
         * {@link #secure(boolean) Secure}.
         *
         * @param partitioned whether to set it
         * @return this builder
         */
        public Builder partitioned(boolean partitioned) {
            this.partitioned = partitioned;
            return this;
        }

        /**
         * {@return the cookie}
         *
         * @throws IllegalArgumentException if the attributes break a rule a browser enforces:
         *     {@code SameSite=None} or {@code Partitioned} without {@code Secure}, a
         *     {@code __Secure-} name without {@code Secure}, a {@code __Host-} name without
         *     {@code Secure} and {@code Path=/} or with a {@code Domain}
         */
        public SetCookie build() {
            if (sameSite == SameSite.NONE && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": SameSite=None requires Secure "
                        + "(browsers reject it without)");
            }
            if (partitioned && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": Partitioned requires Secure");
            }
            if (startsWithIgnoreCase(name, "__Secure-") && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": the __Secure- prefix requires Secure");
            }
            if (startsWithIgnoreCase(name, "__Host-") && (!secure || !"/".equals(path) || domain != null)) {
                throw new IllegalArgumentException("cookie " + name
                        + ": the __Host- prefix requires Secure, Path=/ and no Domain");
            }
            return new SetCookie(this);
        }

        /** For a message: control and non-ASCII characters shown as {@code \\uXXXX}, cut at 64. */
        private static String printable(String s) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < s.length() && i < 64; i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c >= 0x7F) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            return s.length() > 64 ? sb + "..." : sb.toString();
        }
    }
}
