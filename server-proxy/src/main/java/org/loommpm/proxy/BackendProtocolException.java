package org.loommpm.proxy;

import java.io.IOException;

/** The backend broke HTTP/1.1: a malformed head or body framing. Answered 502. */
final class BackendProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    BackendProtocolException(String message) {
        super(message);
    }
}
