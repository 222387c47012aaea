package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;

/**
 * The access log shows the bytes a client sent, escaped as httpd's mod_log_config does: a header
 * read as ISO-8859-1 is logged byte for byte, not re-encoded as UTF-8 (which turned a client's
 * UTF-8 {@code é} into four bytes); {@code %U}, the decoded path, is logged as UTF-8.
 */
class AccessLogBytesTest {
    @TempDir
    Path dir;
    private LoomServer server;
    private AsyncLogWriter writer;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (writer != null) {
            writer.close();
        }
    }

    @Test
    void nonAsciiHeaderBytesAreLoggedAsSent() throws Exception {
        Path log = dir.resolve("access_log");
        writer = new AsyncLogWriter(log.toString(), AsyncLogWriter.DEFAULT_CAPACITY, m -> { });
        AccessLogFormat format = AccessLogFormat.compile("%{User-Agent}i|%{X-Latin}i|%U|%r|%{X-Out}o");
        AccessLogFilter filter = new AccessLogFilter(List.of(new AccessLogFilter.Sink(format, writer)), null);
        server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(filter.around((req, res) -> res.header("X-Out", "\u00e9").send("ok")))
                .start();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.writeBytes("GET /caf%C3%A9 HTTP/1.1\r\nHost: h\r\nConnection: close\r\nUser-Agent: caf"
                .getBytes(StandardCharsets.US_ASCII));
        head.writeBytes(new byte[] {(byte) 0xC3, (byte) 0xA9});
        head.writeBytes("\r\nX-Latin: ".getBytes(StandardCharsets.US_ASCII));
        head.write(0xE9);
        head.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(head.toByteArray());
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        }
        assertTrue(writer.flush(5000));
        assertEquals("caf\\xc3\\xa9|\\xe9|/caf\\xc3\\xa9|GET /caf%C3%A9 HTTP/1.1|\\xe9\n",
                Files.readString(log, StandardCharsets.US_ASCII));
    }

    /**
     * A request line of a higher minor version is served as HTTP/1.1 (RFC 9110 §2.5) but logged
     * as received: {@code %r} and {@code %H} say {@code HTTP/1.2}, as httpd's do.
     */
    @Test
    void aHigherMinorVersionIsLoggedAsSent() throws Exception {
        Path log = dir.resolve("access_log");
        writer = new AsyncLogWriter(log.toString(), AsyncLogWriter.DEFAULT_CAPACITY, m -> { });
        AccessLogFormat format = AccessLogFormat.compile("%r|%H|%s");
        AccessLogFilter filter = new AccessLogFilter(List.of(new AccessLogFilter.Sink(format, writer)), null);
        server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(filter.around((req, res) -> res.send(req.protocol())))
                .start();
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /x?y HTTP/1.2\r\nHost: h\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("\r\n\r\nHTTP/1.1"), answer);
        }
        assertTrue(writer.flush(5000));
        assertEquals("GET /x?y HTTP/1.2|HTTP/1.2|200\n", Files.readString(log, StandardCharsets.US_ASCII));
    }
}
