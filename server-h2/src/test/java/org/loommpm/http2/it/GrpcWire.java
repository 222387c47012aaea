package org.loommpm.http2.it;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * The gRPC wire format over HTTP/2 (gRPC's PROTOCOL-HTTP2.md), as much as a loom-mpm handler needs
 * to serve gRPC clients without a gRPC library: each message is a length-prefixed frame in the
 * body (a compressed-flag byte, a 4-byte big-endian length, the message), the response's head says
 * {@code content-type: application/grpc}, and the call's outcome is the {@code grpc-status} (and
 * {@code grpc-message}) trailer field. Test code: what {@code GrpcOverH2cTest} and docs/api.md show.
 */
final class GrpcWire {
    /** The status codes the tests use (gRPC's {@code google.rpc.Code}). */
    static final int OK = 0, INVALID_ARGUMENT = 3, NOT_FOUND = 5, UNIMPLEMENTED = 12;
    /** A bound on one message, as grpc-java's default inbound limit (4 MiB). */
    static final int MAX_MESSAGE = 4 * 1024 * 1024;

    private GrpcWire() {
    }

    /**
     * One call's outcome as the handler sets it; sent as the trailers when the body ends. A
     * handler makes one first: it refuses what is not a gRPC request (415), and sets the head's
     * content type and the trailers' supplier, which reads {@link #status} and {@link #message}
     * only when the last message has been written.
     */
    static final class Call {
        int status = OK;
        String message;

        Call(Request req, Response res) {
            String type = req.header("content-type");
            if (type == null || !(type.equals("application/grpc") || type.startsWith("application/grpc+")
                    || type.startsWith("application/grpc;"))) {
                throw new HttpException(415, "not a gRPC request: " + type);
            }
            res.header("content-type", "application/grpc");
            res.trailers(() -> trailers(status, message));
        }

        /** Ends the call with an error status (no message need follow). */
        void fail(int code, String text) {
            status = code;
            message = text;
        }
    }

    /** The trailer fields of a call's outcome. */
    static Headers trailers(int status, String message) {
        Headers t = new Headers().add("grpc-status", Integer.toString(status));
        if (message != null) {
            t.add("grpc-message", percentEncode(message));
        }
        return t;
    }

    /**
     * The next message of a request body, or {@code null} at its end.
     *
     * @throws HttpException 400 for a compressed message (none was negotiated) or a frame cut short
     */
    static byte[] read(InputStream body) throws IOException {
        int flag = body.read();
        if (flag < 0) {
            return null;
        }
        if (flag != 0) {
            throw new HttpException(400, "compressed gRPC message without grpc-encoding");
        }
        byte[] len = body.readNBytes(4);
        if (len.length < 4) {
            throw new HttpException(400, "gRPC message prefix cut short");
        }
        int n = (len[0] & 0xff) << 24 | (len[1] & 0xff) << 16 | (len[2] & 0xff) << 8 | (len[3] & 0xff);
        if (n < 0 || n > MAX_MESSAGE) {
            throw new HttpException(413, "gRPC message of " + Integer.toUnsignedString(n) + " bytes");
        }
        byte[] message = body.readNBytes(n);
        if (message.length < n) {
            throw new EOFException("gRPC message cut short");
        }
        return message;
    }

    /** Writes one message: its 5-byte prefix, then the bytes. */
    static void write(OutputStream out, byte[] message) throws IOException {
        int n = message.length;
        out.write(new byte[] {0, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        out.write(message);
    }

    /** A message as text (the tests' marshaller is UTF-8 strings). */
    static String text(byte[] message) {
        return new String(message, StandardCharsets.UTF_8);
    }

    /**
     * {@code grpc-message}'s encoding: UTF-8, percent-encoded outside printable ASCII and for
     * {@code %} itself (PROTOCOL-HTTP2.md, "Responses").
     */
    static String percentEncode(String message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : message.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '%') {
                out.write(c);
            } else {
                out.writeBytes(String.format("%%%02X", c).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return out.toString(StandardCharsets.US_ASCII);
    }
}
