package org.loommpm.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.Response;
import org.loommpm.http.syntax.StatusReasons;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;

/**
 * The part of a response every protocol keeps the same way: the status and header fields a
 * handler sets before the head is committed (validated, so no value can split or corrupt the
 * head), and the two flags that end that phase. HTTP/1.1 and HTTP/2 extend it with how the head
 * and body reach the wire. Owned by the task serving the exchange.
 */
public abstract class ResponseState implements Response {
    /**
     * The header fields; a handler may also fill them through {@link #headers()}. Room for four
     * to start with: most handlers set one or two (the server writes Date, Server and the
     * framing fields itself), and this array is allocated per exchange.
     */
    protected final Headers headers = new Headers(4);
    /** The status, 200 until set. */
    protected int status = 200;
    /** Set once the head is encoded: status and headers can no longer change. */
    protected boolean committed;
    /** Set once the whole response was handed over: nothing more may be sent. */
    protected boolean complete;
    /** {@link Headers#additions()} when every field so far came through {@link #header}, else -1. */
    private int checkedAdditions;
    /** The scoreboard {@link #logging} marks, or {@code null}. */
    private SlotBoard board;
    /** The slot the serving task holds now ({@link WorkerTask#NO_SLOT} while it has lent it). */
    private int slot = WorkerTask.NO_SLOT;

    /** Where {@link #logging} shows: the serving task's slot, told again when it changes. The serving task. */
    public final void showIn(SlotBoard board, int slot) {
        this.board = board;
        this.slot = slot;
    }

    @Override
    public final void logging() {
        if (board != null && slot != WorkerTask.NO_SLOT) {
            board.set(slot, SlotBoard.LOGGING);
        }
    }
    /** The protocol the connection switches to once a 101 is written, or {@code null}. */
    private ProtocolUpgrade upgrade;
    /**
     * The exchange this response was handed over to by {@code suspend()} or
     * {@code eventStream()}, else {@code null}. Set by the serving task; read by it after the
     * handler returned.
     */
    private SuspendedExchange suspension;
    /** What {@link #trailers(Supplier)} set, or {@code null}: the trailer fields, once the body ends. */
    private Supplier<Headers> trailers;
    /** What {@link #beforeHead} set, or {@code null}. */
    private Consumer<Response> beforeHead;

    /**
     * Runs {@code action} on this response whenever its head is about to be encoded: the last
     * moment its status and fields may change, for every final head of the exchange, whoever
     * answers (the handler, the server answering a failure with its status, a suspended
     * exchange answered later on another thread). Filters that shape the fields of every
     * response (the CLI's {@code Header} and {@code Expires*} directives) set one. It runs again
     * if the head is encoded again (a handler's invalid field answered 500, its fields cleared);
     * an interim (1xx) head does not run it. It must be quick and must not block, commit or send;
     * it may change {@link #headers()} (the fields are validated after it ran). Actions add up:
     * one set later runs before those set earlier, as an inner filter (nearer the content) is
     * asked before an outer one, so an outer {@code Header} rule sees and may change what an inner
     * {@code ExpiresByType} set.
     *
     * @param action what to do to the response
     */
    public final void beforeHead(Consumer<Response> action) {
        checkNotCommitted();
        Consumer<Response> earlier = beforeHead;
        beforeHead = earlier == null ? action : r -> {
            action.accept(r);
            earlier.accept(r);
        };
    }

    @Override
    public final Response status(int code) {
        checkNotCommitted();
        status = checkFinalStatus(code);
        return this;
    }

    /**
     * A status a final response may carry: three digits, not an interim 1xx (a client takes
     * one for a preliminary answer and goes on waiting for the final response, and HTTP/2 calls
     * it malformed with END_STREAM, RFC 9113 §8.1). {@code 101} stays: it ends the exchange by
     * switching protocols.
     *
     * @return {@code code}
     * @throws IllegalArgumentException for another status; a 1xx is sent with {@code sendInterim}
     */
    public static int checkFinalStatus(int code) {
        if (code < 100 || code > 999) {
            throw new IllegalArgumentException("status out of range: " + code);
        }
        if (code < 200 && code != 101) {
            throw new IllegalArgumentException("status " + code + " is interim: send it with sendInterim");
        }
        return code;
    }

    /**
     * The size of a file {@code sendFile} is to send, checked before anything is committed: a
     * directory opens as a channel on Linux and fails only at the first read, after a head
     * announcing its size went out.
     *
     * @throws IOException if the file cannot be read, or is a directory
     */
    protected static long sendableSize(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        if (a.isDirectory()) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
        return a.size();
    }

    /**
     * Checks a byte range of a file of {@code size} bytes without overflowing
     * ({@code position + count} may exceed {@code Long.MAX_VALUE}).
     *
     * @throws IllegalArgumentException for a negative position or count
     * @throws IOException when the range ends past the end of the file
     */
    protected static void checkRange(Path file, long position, long count, long size) throws IOException {
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative range: " + position + "+" + count);
        }
        if (position > size || count > size - position) {
            throw new IOException("range " + position + "+" + count + " outside " + file + " of " + size + " bytes");
        }
    }

    @Override
    public final int status() {
        return status;
    }

    @Override
    public final Response header(String name, String value) {
        checkNotCommitted();
        HeaderValidation.check(name, value);
        boolean allChecked = headers.additions() == checkedAdditions;
        headers.set(name, value);
        checkedAdditions = allChecked ? headers.additions() : -1;
        return this;
    }

    @Override
    public final Headers headers() {
        return headers;
    }

    @Override
    public final Response trailers(Supplier<Headers> fields) {
        checkNotComplete();
        checkNotCommitted();
        trailers = fields;
        return this;
    }

    /**
     * Whether trailer fields were asked for; the protocol decides whether it can send them
     * ({@link Response#trailers(Supplier)}: not to HEAD, nor with a 204 or 304, nor to HTTP/1.0).
     *
     * @return whether {@link #trailers(Supplier)} set a supplier
     */
    protected final boolean trailersSet() {
        return trailers != null;
    }

    /**
     * The trailer fields, from the handler's supplier called now: the protocol calls it once,
     * when the body is complete.
     *
     * @return the fields, checked, in a copy of their own; empty when the supplier gave none
     * @throws IllegalArgumentException for a field that is invalid or not allowed in trailers
     */
    protected final Headers takeTrailers() {
        return HeaderValidation.trailers(trailers == null ? null : trailers.get());
    }

    /**
     * Streams {@code count} bytes of a file from {@code position} through {@link #outputStream()}
     * (the interface's default): a body with trailers, which a zero-copy transfer cannot end
     * with them.
     *
     * @throws IOException if the file cannot be read or the connection fails
     */
    protected final void streamFile(Path file, long position, long count) throws IOException {
        Response.super.sendFile(file, position, count);
    }

    @Override
    public final boolean isCommitted() {
        return committed;
    }

    @Override
    public final boolean sendInterim(int status, Headers fields) throws IOException {
        checkNotComplete();
        checkNotCommitted();
        return writeInterim(status, HeaderValidation.interim(status, fields));
    }

    /**
     * Writes an interim response (checked, its fields a copy of this exchange's own) ahead of the
     * final head; {@code false} where the client cannot take one (HTTP/1.0).
     */
    protected abstract boolean writeInterim(int status, Headers fields) throws IOException;

    /**
     * Runs {@link #beforeHead}'s action, then checks the fields a handler may have added directly
     * through {@link #headers()} (a mutable view) before the head is encoded, so no path can
     * split it (CR/LF injection). Fields that all came through {@link #header}, which checks each
     * one, are not checked twice.
     *
     * @throws IllegalArgumentException naming the first invalid field
     */
    protected final void checkHeaders() {
        // The handler's fields first: a head refused for one of them stays uncommitted and may be
        // encoded again once the handler fixed it, so the action must not have run on it yet.
        checkAdded();
        if (beforeHead != null) {
            beforeHead.accept(this);
            checkAdded();
        }
    }

    private void checkAdded() {
        if (headers.additions() == checkedAdditions) {
            return;
        }
        for (int i = 0; i < headers.size(); i++) {
            HeaderValidation.check(headers.name(i), headers.value(i));
        }
    }

    /**
     * Answers with {@code status} and its reason phrase as a short text body, replacing whatever
     * header fields the handler set: how either protocol answers a failed handler while the head
     * is not committed. The CORS fields ({@code Access-Control-*}) and {@code Vary} stay (valid
     * ones only): without them a browser hides a cross-origin error's status from the page,
     * which then sees a network failure instead of, say, its 400 (a {@code cors.Cors} filter
     * sets them before the handler runs, as a Servlet container keeps them on {@code sendError}).
     */
    protected final void sendStatusText(int status) throws IOException {
        sendStatusText(status, null);
    }

    /**
     * As {@link #sendStatusText(int)}, but an {@link HttpException} of that status carrying a body
     * of its own ({@link HttpException#body()}: a problem document) answers with that body and its
     * Content-Type instead of the reason phrase; a HEAD request gets its length, not its bytes.
     *
     * @param status the status to answer
     * @param cause the failure being answered, or {@code null}
     */
    protected final void sendStatusText(int status, Throwable cause) throws IOException {
        Headers kept = null;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (name.regionMatches(true, 0, "Access-Control-", 0, 15) || Headers.equalsIgnoreCase(name, "Vary")) {
                try {
                    HeaderValidation.check(name, headers.value(i));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                (kept == null ? kept = new Headers(4) : kept).add(name, headers.value(i));
            }
        }
        headers.clear();
        trailers = null; // an error answer carries no trailers of the failed one
        if (kept != null) {
            kept.forEach(headers::add);
        }
        status(status);
        if (cause instanceof HttpException he && he.status() == status && he.contentType() != null) {
            header("Content-Type", he.contentType());
            send(he.body());
            return;
        }
        header("Content-Type", "text/plain; charset=UTF-8");
        send((StatusReasons.reason(status) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Switches the connection to {@code next} once this response, a {@code 101} the handler
     * sets, is written (HTTP/1.1). A handler of this server's own (WebSocket) calls it; the
     * protocol decides when and whether it can switch.
     *
     * @throws IllegalStateException once the head is committed
     */
    public final void upgrade(ProtocolUpgrade next) {
        checkNotCommitted();
        upgrade = next;
    }

    /**
     * {@return the protocol an HTTP/2 extended CONNECT asks for ({@code :protocol}, RFC 8441), or
     * {@code null} when the request is not one} HTTP/2 overrides it.
     */
    public String connectProtocol() {
        return null;
    }

    /**
     * Accepts an extended CONNECT ({@link #connectProtocol()}): the response, with the status and
     * header fields set, is sent as the stream's head without ending it, and once the handler has
     * returned the stream becomes a {@link Tunnel} handed to {@code open}, which returns its
     * endpoint. {@code open} is called exactly once, also when the client reset the stream
     * before the tunnel opened (its {@code outbound().closed()} is then complete and the endpoint
     * is not opened): what the caller holds for the tunnel is let go through that future. A
     * handler of this server's own (WebSocket, the proxy) calls it.
     *
     * @throws UnsupportedOperationException when the request is not an extended CONNECT
     * @throws java.io.IOException if the stream is gone
     */
    public void tunnel(java.util.function.Function<Tunnel, Tunnel.Endpoint> open) throws java.io.IOException {
        throw new UnsupportedOperationException("not an HTTP/2 extended CONNECT");
    }

    /**
     * {@return whether a WebSocket handshake may agree permessage-deflate on this server
     * ({@code WebSocketDeflate})} Each protocol answers from its configuration.
     */
    public abstract boolean webSocketDeflate();

    /** The protocol set by {@link #upgrade(ProtocolUpgrade)} for a {@code 101}, else {@code null}. */
    public final ProtocolUpgrade switchingTo() {
        return status == 101 ? upgrade : null;
    }

    /**
     * Hands the response over to {@code s}: from now on only the suspended exchange sends it (the
     * handler's own calls fail as for a completed response).
     *
     * @throws IllegalStateException if the response was already committed, completed or suspended
     */
    protected final void handOver(SuspendedExchange s) {
        checkNotComplete();
        checkNotCommitted();
        checkNoTrailers();
        suspension = s;
        complete = true;
    }

    /**
     * A suspended exchange's answer is written by its handle, which sends no trailers: a response
     * with trailers is refused rather than sent without them. Checked before the suspended
     * exchange is made (it counts itself as started).
     *
     * @throws IllegalStateException when trailers were set
     */
    protected final void checkNoTrailers() {
        if (trailers != null) {
            throw new IllegalStateException("a response with trailers cannot be suspended");
        }
    }

    /** The suspended exchange this response was handed over to, or {@code null}. */
    public final SuspendedExchange suspension() {
        return suspension;
    }

    /** @throws IllegalStateException once the head is committed */
    protected final void checkNotCommitted() {
        if (committed) {
            throw new IllegalStateException("response already committed");
        }
    }

    /** @throws IllegalStateException once the response is complete */
    protected final void checkNotComplete() {
        if (complete) {
            throw new IllegalStateException(suspension != null ? "response suspended: answer through its handle"
                    : "response already sent");
        }
    }
}
