package org.loommpm.cookie;

import java.util.Objects;

/**
 * One cookie a client sent: a name and its value, as they appear in the {@code Cookie} field
 * (the value without surrounding double quotes, otherwise not decoded: an application that
 * percent-encodes or base64-encodes its values decodes them itself).
 *
 * @param name the cookie's name (an HTTP token, never empty)
 * @param value the cookie's value (possibly empty)
 */
public record Cookie(String name, String value) {
    /**
     * Checks that neither part is {@code null}.
     *
     * @param name the cookie's name
     * @param value the cookie's value
     */
    public Cookie {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
