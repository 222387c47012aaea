package org.loommpm.http1;

import java.nio.charset.StandardCharsets;
import org.loommpm.http.syntax.StatusReasons;

/**
 * Pre-encoded HTTP/1.1 status lines, so writing a response head does not format the common
 * status line anew for every response.
 */
final class StatusLines {
    private static final byte[][] STATUS_LINES = new byte[600][];

    static {
        for (int status = 100; status < STATUS_LINES.length; status++) {
            String reason = StatusReasons.reason(status);
            if (!reason.equals("Unknown")) {
                STATUS_LINES[status] = encode(status, reason);
            }
        }
    }

    private StatusLines() {
    }

    /**
     * {@code HTTP/1.1 <status> <reason>\r\n} as ASCII. The array of a known status is shared:
     * callers must not modify it.
     *
     * @throws IllegalArgumentException when {@code status} is not three digits
     */
    static byte[] statusLine(int status) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status must have three digits: " + status);
        }
        byte[] cached = status < STATUS_LINES.length ? STATUS_LINES[status] : null;
        return cached != null ? cached : encode(status, StatusReasons.reason(status));
    }

    private static byte[] encode(int status, String reason) {
        return ("HTTP/1.1 " + status + ' ' + reason + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }
}
