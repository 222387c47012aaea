package org.loommpm.spi;

import java.io.IOException;

/**
 * The connection's socket failed or was closed under a worker (peer reset, broken pipe, forced
 * shutdown). Lets protocol code tell a client that went away, which is routine and logged at
 * debug, from an application's own I/O failure, which is a 500 and an error log line.
 */
public final class PeerIOException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * Thrown by the engine's connection when its socket fails under a worker.
     *
     * @param cause the socket's failure
     */
    public PeerIOException(IOException cause) {
        super(cause.getMessage(), cause);
    }
}
