package org.loommpm.http1;

import java.nio.charset.StandardCharsets;

/**
 * Complete error responses for requests that never reached a handler (a head we reject, a head
 * that timed out): a status line, a short text body, and {@code Connection: close}.
 */
final class ErrorResponses {
    private ErrorResponses() {
    }

    /**
     * @param status the status code
     * @param server the {@code Server} header value
     * @param withDate whether to include {@code Date} (left out of responses built once at start)
     */
    static byte[] bytes(int status, String server, boolean withDate) {
        String body = StatusReasons.reason(status) + "\n";
        StringBuilder sb = new StringBuilder(160)
                .append("HTTP/1.1 ").append(status).append(' ').append(StatusReasons.reason(status)).append("\r\n");
        if (withDate) {
            sb.append("Date: ").append(HttpDate.now()).append("\r\n");
        }
        sb.append("Server: ").append(server).append("\r\n")
                .append("Content-Type: text/plain; charset=UTF-8\r\n")
                .append("Content-Length: ").append(body.length()).append("\r\n")
                .append("Connection: close\r\n\r\n")
                .append(body);
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
