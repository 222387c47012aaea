package org.loommpm.cli.logging;

import java.net.InetSocketAddress;
import java.util.List;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.ResponseState;

/**
 * The access log ({@code CustomLog}): a {@link Filter} around the whole site. After the handler
 * returns it completes the response (as the server would), so the status and byte counts are
 * final, and formats one line per log on the worker, straight into that log's
 * {@link AsyncLogWriter}'s buffer as the bytes the file gets (never blocking). The
 * monotonic clock is read only when a format prints the duration. A handler that throws is
 * logged with the status the server will answer with ({@link HttpException}'s, else 500) and no
 * byte count.
 */
public final class AccessLogFilter implements Filter {
    /** One {@code CustomLog}: a format and its writer. */
    public record Sink(AccessLogFormat format, AsyncLogWriter writer) {
    }

    private final Sink[] sinks;
    private final String serverName;
    /** Whether any format prints the duration ({@code %D}, {@code %T}). */
    private final boolean timed;

    /**
     * @param sinks where to log
     * @param serverName {@code ServerName} for {@code %v}, or null
     */
    public AccessLogFilter(List<Sink> sinks, String serverName) {
        this.sinks = sinks.toArray(new Sink[0]);
        this.serverName = serverName;
        boolean t = false;
        for (Sink s : this.sinks) {
            t |= s.format().timed();
        }
        this.timed = t;
    }

    /**
     * It formats into a buffer and hands the line to its writer, which never blocks: it may run
     * on the poller.
     */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        long startMillis = System.currentTimeMillis();
        long start = timed ? System.nanoTime() : 0;
        try {
            next.handle(request, response);
            if (response instanceof ResponseState rs && rs.suspension() != null) {
                // Answered later (a proxied exchange on the poller, a long poll): logged when it
                // ends, with its final status and sizes, on the thread that ended it.
                rs.suspension().ended().whenComplete((v, e) ->
                        log(request, response, response.status(), startMillis, start));
                return;
            }
            if (!response.isCommitted()) {
                // What the server does after the handler returns, done now so the line has the
                // real status and sizes (an untouched response becomes an empty 200).
                response.outputStream().close();
            }
        } catch (Exception | Error e) {
            int status = e instanceof HttpException h ? h.status() : 500;
            log(request, response, response.isCommitted() ? response.status() : status, startMillis, start);
            throw e;
        }
        log(request, response, response.status(), startMillis, start);
    }

    private void log(Request request, Response response, int status, long startMillis, long start) {
        response.logging(); // httpd's L in the worker's slot while the line is formatted
        AccessLogFormat.Exchange x = new AccessLogFormat.Exchange(request, response, status, startMillis,
                timed ? System.nanoTime() - start : 0, serverName);
        // Keyed by the client connection, so that one connection's lines keep their order.
        InetSocketAddress client = request.remoteAddress();
        int key = client != null ? client.hashCode() : 0;
        for (Sink s : sinks) {
            s.writer().offer(key, s.format(), x);
        }
    }
}
