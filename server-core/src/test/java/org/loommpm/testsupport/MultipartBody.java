package org.loommpm.testsupport;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds {@code multipart/form-data} bodies as a browser sends them, for tests of every module. */
public final class MultipartBody {
    public static final String BOUNDARY = "----LoomFormBoundary7MA4YWxkTrZu0gW";

    private final String boundary;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public MultipartBody() {
        this(BOUNDARY);
    }

    public MultipartBody(String boundary) {
        this.boundary = boundary;
    }

    /** {@return the Content-Type naming this body's boundary} */
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    public MultipartBody field(String name, String value) {
        return part("Content-Disposition: form-data; name=\"" + name + "\"\r\n", value.getBytes(StandardCharsets.UTF_8));
    }

    public MultipartBody file(String name, String filename, String contentType, byte[] content) {
        return part("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\n"
                + "Content-Type: " + contentType + "\r\n", content);
    }

    /** A part with the header lines given (each ending CRLF). */
    public MultipartBody part(String headerLines, byte[] content) {
        out.writeBytes(("--" + boundary + "\r\n" + headerLines + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    /** {@return the body with its closing delimiter} */
    public byte[] build() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes(out.toByteArray());
        all.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return all.toByteArray();
    }

    /** {@return the parts so far without a closing delimiter: a body cut short} */
    public byte[] unterminated() {
        return out.toByteArray();
    }
}
