package org.loommpm.cli.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request on a raw socket with {@code Connection: close}, and the answer as sent:
 * the differential tests against httpd send the same bytes to both servers this way.
 *
 * @param status the status code
 * @param headers the fields, by lower-case name (the last of a repeated one)
 * @param body the body's bytes
 */
record RawExchange(int status, Map<String, String> headers, byte[] body) {
    /**
     * Sends {@code method path} to 127.0.0.1:{@code port}.
     *
     * @param fields more header lines, each ending in CRLF (empty for none)
     */
    static RawExchange send(int port, String method, String path, String fields) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + (method.equals("POST") ? "Content-Length: 0\r\n" : "") + fields + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            s.getInputStream().transferTo(all);
            String text = all.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            String[] lines = text.substring(0, end).split("\r\n");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            return new RawExchange(Integer.parseInt(lines[0].split(" ")[1]), headers,
                    text.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** {@return a field's value, or null} */
    String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    /** {@return the body's SHA-256, in hex} */
    String bodySha256() {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
