package org.loommpm.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import org.loommpm.api.HttpException;
import org.loommpm.api.Request;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.InputBudget;

/**
 * What {@code Request.bodyBytes()} and {@code bodyString()} do, the same for HTTP/1.1 and HTTP/2:
 * read the whole body within {@code LimitRequestBody} and the child's {@link InputBudget}, and
 * decode it with the charset the request names. Called on the worker that serves the request.
 *
 * <p>The body is charged to the budget as it is read, before it is buffered; what is held stays
 * charged until the exchange ends ({@link RequestAttributes#release}, however the handler ends),
 * since the handler holds the array until then. A refusal, or any failure of the read, releases
 * what the exchange's bodies hold at once; the refusal is answered 413 and logged (LM2804, one
 * line per interval with a count).
 */
public final class RequestBodies {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http");
    private RequestBodies() {
    }

    /**
     * Reads {@code body} to its end.
     *
     * @param req the request the body is of: what it holds of the budget is released with its exchange
     * @param body the body stream
     * @param contentLength the announced length (a sizing hint), or -1
     * @param limit {@code LimitRequestBody}, 0 = none
     * @param services the child serving the request: its input budget and its log of floods
     * @throws HttpException 413 past the limit, past what an array can hold, or when the budget refuses
     */
    public static byte[] readAll(Request req, InputStream body, long contentLength, long limit, ChildServices services)
            throws IOException {
        InputBudget budget = services.inputBudget();
        InputBudget.Hold hold = RequestAttributes.bodyHold(req, budget);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(
                    contentLength > 0 ? (int) Math.min(contentLength, 1 << 20) : 256);
            byte[] buf = new byte[8192];
            long total = 0;
            int n;
            while ((n = body.read(buf)) >= 0) {
                total += n;
                if (total > Integer.MAX_VALUE - 8 || (limit > 0 && total > limit)) {
                    throw new HttpException(413, "request body too large to hold in memory");
                }
                if (!hold.grow(n)) {
                    services.intervalLog().log(LOG, System.Logger.Level.WARNING,
                            "LM2804 input budget exhausted ({0} of {1} bytes held): a request body read whole refused"
                                    + " (413) at {2} bytes", budget.used(), budget.limit(), total);
                    throw new HttpException(413, "request body refused: the server holds too much input now");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException | RuntimeException | Error e) {
            hold.releaseAll();
            throw e;
        }
    }

    /**
     * The {@code charset} parameter of a {@code Content-Type}, UTF-8 when there is none.
     *
     * @throws HttpException 415 for a charset the JDK does not know
     */
    public static Charset charset(String contentType) {
        if (contentType != null) {
            int i = contentType.toLowerCase(Locale.ROOT).indexOf("charset=");
            if (i >= 0) {
                String cs = contentType.substring(i + 8).trim();
                int end = cs.indexOf(';');
                cs = (end >= 0 ? cs.substring(0, end) : cs).replace("\"", "").trim();
                try {
                    return Charset.forName(cs);
                } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                    throw new HttpException(415, "unsupported charset " + cs);
                }
            }
        }
        return StandardCharsets.UTF_8;
    }
}
