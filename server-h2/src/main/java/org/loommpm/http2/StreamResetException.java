package org.loommpm.http2;

import java.io.IOException;

/**
 * A body read or write on a stream that was reset (by the client, by a stream error, or because
 * its connection ended): the handler's exchange is over, there is nobody to answer.
 */
public final class StreamResetException extends IOException {
    StreamResetException(int streamId) {
        super("HTTP/2 stream " + streamId + " was reset");
    }
}
