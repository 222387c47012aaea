package org.loommpm.api;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.loommpm.cookie.Cookie;
import org.loommpm.cookie.CookieException;
import org.loommpm.cookie.CookieParser;
import org.loommpm.json.JsonCodec;
import org.loommpm.json.JsonCodecException;
import org.loommpm.json.JsonCodecs;

/**
 * What {@link Request}'s and {@link Response}'s JSON and cookie methods do: the pure codec
 * packages ({@code json}, {@code cookie}) turned into HTTP answers. A codec's failure becomes an
 * {@link HttpException} whose message starts with a log id (logged by LM0406 / LM0709) and whose
 * body tells the client only what it can act on.
 */
final class Codecs {
    private Codecs() {
    }

    /** Why a body could not be read: the same for every failure, so no internals leak. */
    static final String BAD_JSON = "The request body is not valid JSON or does not match the expected structure.";

    static <T> T readJson(Request req, Type type) throws IOException {
        String contentType = req.header("Content-Type");
        if (contentType != null && !isJson(contentType)) {
            throw HttpException.problem(Problem.of(415, "The request body must be JSON (application/json)."),
                    "LM2741 JSON expected, the request body is " + contentType);
        }
        JsonCodec codec = JsonCodecs.find();
        GuardedBody in = new GuardedBody(req.body());
        try {
            return codec.read(in, type);
        } catch (JsonCodecException e) {
            // The codec may have wrapped the body stream's own failure (a 413 past
            // LimitRequestBody, malformed chunked framing, the client gone): that one is answered.
            in.rethrowFailure();
            throw HttpException.problem(Problem.of(400, BAD_JSON),
                    "LM2740 invalid JSON body for " + type.getTypeName() + ": " + e.getMessage());
        } catch (RuntimeException | IOException e) {
            in.rethrowFailure();
            throw e;
        }
    }

    /**
     * Streams the value through the codec. The stream is closed only when the value was written
     * whole: a value that fails half-way must not be completed as if it were the answer (the
     * handler's failure is answered 500 if nothing went out, else the response is cut off).
     */
    static void writeJson(Response res, Object value) throws IOException {
        JsonCodec codec = JsonCodecs.find();
        if (!res.headers().contains("Content-Type")) {
            res.header("Content-Type", codec.mediaType());
        }
        OutputStream out = res.outputStream();
        codec.write(value, out);
        out.close();
    }

    /**
     * {@code application/json} or any {@code application/*+json} (RFC 6839), parameters aside;
     * the charset is not checked: JSON is UTF-8 (RFC 8259 §8.1) and a codec detects UTF-16/32.
     */
    static boolean isJson(String contentType) {
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    static List<Cookie> cookies(Request req) {
        List<String> fields = req.headers().all("Cookie");
        if (fields.isEmpty()) {
            return List.of();
        }
        // Several Cookie fields (HTTP/1.1 clients should send one; HTTP/2 crumbs are joined
        // already) are one list, as RFC 9113 §8.2.3 joins them.
        String header = fields.size() == 1 ? fields.get(0) : String.join("; ", fields);
        try {
            return CookieParser.parse(header, CookieParser.DEFAULT_MAX_COOKIES);
        } catch (CookieException e) {
            // RFC 6585 §5: a 431 for one field should say which.
            throw new HttpException(e.status(), e.getMessage(), "text/plain; charset=UTF-8",
                    ("Request Header Fields Too Large: too many cookies in the Cookie header\n")
                            .getBytes(StandardCharsets.UTF_8));
        }
    }

    static String cookie(Request req, String name) {
        for (Cookie c : cookies(req)) {
            if (c.name().equals(name)) {
                return c.value();
            }
        }
        return null;
    }

    /** The body as the codec reads it, keeping the first failure of the body itself. */
    private static final class GuardedBody extends FilterInputStream {
        private Exception failure;

        GuardedBody(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException | RuntimeException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (IOException | RuntimeException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return super.available();
            } catch (IOException | RuntimeException e) {
                keep(e);
                throw e;
            }
        }

        /** The codec does not end the exchange's body: the server drains or drops what is left. */
        @Override
        public void close() {
        }

        private void keep(Exception e) {
            if (failure == null) {
                failure = e;
            }
        }

        void rethrowFailure() throws IOException {
            if (failure instanceof IOException io) {
                throw io;
            }
            if (failure instanceof RuntimeException re) {
                throw re;
            }
        }
    }
}
