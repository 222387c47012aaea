package org.loommpm.proxy;

/**
 * Where a request head toward a backend is composed, straight into bytes with no string built
 * per request: a blocking {@link BackendConnection}'s output buffer, or the {@link HeadBytes} of
 * an exchange on an event loop. Text is ISO-8859-1, what it cannot map becoming {@code ?}.
 */
interface HeadSink {
    /** {@return appends {@code s[from, to)}} */
    HeadSink ascii(String s, int from, int to);

    /** {@return appends a non-negative number in decimal} */
    HeadSink decimal(long v);

    /** {@return appends {@code s}} */
    default HeadSink ascii(String s) {
        return ascii(s, 0, s.length());
    }

    /** {@return appends {@code s} from index {@code from} on} */
    default HeadSink ascii(String s, int from) {
        return ascii(s, from, s.length());
    }
}
