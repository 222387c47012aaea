package org.loommpm.protocol;

import org.loommpm.api.Headers;
import org.loommpm.api.Response;

/**
 * The part of a response every protocol keeps the same way: the status and header fields a
 * handler sets before the head is committed (validated, so no value can split or corrupt the
 * head), and the two flags that end that phase. HTTP/1.1 and HTTP/2 extend it with how the head
 * and body reach the wire. Owned by the task serving the exchange.
 */
public abstract class ResponseState implements Response {
    /** The header fields; a handler may also fill them through {@link #headers()}. */
    protected final Headers headers = new Headers();
    /** The status, 200 until set. */
    protected int status = 200;
    /** Set once the head is encoded: status and headers can no longer change. */
    protected boolean committed;
    /** Set once the whole response was handed over: nothing more may be sent. */
    protected boolean complete;

    @Override
    public final Response status(int code) {
        checkNotCommitted();
        if (code < 100 || code > 999) {
            throw new IllegalArgumentException("status out of range: " + code);
        }
        status = code;
        return this;
    }

    @Override
    public final int status() {
        return status;
    }

    @Override
    public final Response header(String name, String value) {
        checkNotCommitted();
        HeaderValidation.check(name, value);
        headers.set(name, value);
        return this;
    }

    @Override
    public final Headers headers() {
        return headers;
    }

    @Override
    public final boolean isCommitted() {
        return committed;
    }

    /** @throws IllegalStateException once the head is committed */
    protected final void checkNotCommitted() {
        if (committed) {
            throw new IllegalStateException("response already committed");
        }
    }

    /** @throws IllegalStateException once the response is complete */
    protected final void checkNotComplete() {
        if (complete) {
            throw new IllegalStateException("response already sent");
        }
    }
}
