package org.loommpm.http1;

import java.nio.charset.StandardCharsets;
import org.loommpm.http.HttpDate;
import org.loommpm.http.syntax.StatusReasons;

/**
 * Complete error responses for requests that never reached a handler (a head we reject, a head
 * that timed out, a plaintext request on a TLS port): a status line, a short text body, and
 * {@code Connection: close}.
 */
final class ErrorResponses {
    private ErrorResponses() {
    }

    /**
     * @param status the status code
     * @param server the {@code Server} header value
     * @param withDate whether to include {@code Date} (left out of responses built once at start)
     * @param withContent whether to send the text body; {@code false} answers a HEAD request, whose
     *                    response never has content (RFC 9110 §9.3.2), only its length
     */
    static byte[] bytes(int status, String server, boolean withDate, boolean withContent) {
        String body = StatusReasons.reason(status) + "\n";
        StringBuilder sb = new StringBuilder(160)
                .append("HTTP/1.1 ").append(status).append(' ').append(StatusReasons.reason(status)).append("\r\n");
        if (withDate) {
            sb.append("Date: ").append(HttpDate.now()).append("\r\n");
        }
        sb.append("Server: ").append(server).append("\r\n")
                .append("Content-Type: text/plain; charset=UTF-8\r\n")
                .append("Content-Length: ").append(body.length()).append("\r\n")
                .append("Connection: close\r\n\r\n");
        if (withContent) {
            sb.append(body);
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The cleartext 400 for a plaintext request on a TLS port, worded like httpd's. */
    static byte[] plaintextOnTls(String server) {
        String body = "Bad Request\nYou're speaking plain HTTP to an SSL-enabled server port.\n"
                + "Instead use the HTTPS scheme to access this URL, please.\n";
        String head = "HTTP/1.1 400 Bad Request\r\nDate: " + HttpDate.now() + "\r\nServer: " + server
                + "\r\nContent-Type: text/plain; charset=US-ASCII\r\nContent-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n";
        return (head + body).getBytes(StandardCharsets.US_ASCII);
    }
}
