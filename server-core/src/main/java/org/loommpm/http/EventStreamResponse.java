package org.loommpm.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.loommpm.api.EventStream;
import org.loommpm.api.ServerSentEvent;

/**
 * An event stream ({@code text/event-stream}) over a {@link SuspendedExchange}: each event is
 * encoded in the HTML format (fields {@code event}, {@code id}, {@code retry}, one {@code data}
 * line per line of data, a blank line to dispatch) and sent as one piece of the streamed body,
 * within the exchange's queue budget. The clock sends a comment when nothing went out for the
 * heartbeat interval. Any thread; nothing here blocks.
 */
public final class EventStreamResponse implements EventStream {
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    private final SuspendedExchange exchange;
    private final String lastEventId;
    private final long heartbeatNanos;
    /** When something was last queued ({@link System#nanoTime()}); any sender writes, the clock reads. */
    private volatile long lastSendNanos = System.nanoTime();

    /**
     * Sets the head's fields and sends it at once.
     *
     * @param heartbeatNanos EventStreamHeartbeat, 0 for none
     */
    public EventStreamResponse(SuspendedExchange exchange, String lastEventId, long heartbeatNanos) throws IOException {
        this.exchange = exchange;
        this.lastEventId = lastEventId;
        this.heartbeatNanos = heartbeatNanos;
        exchange.status(200)
                .header("Content-Type", "text/event-stream; charset=UTF-8")
                .header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no"); // nginx: do not buffer the stream
        exchange.eventStream(this);
        exchange.commit();
    }

    @Override
    public String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean send(ServerSentEvent event) throws IOException {
        return queue(encode(event));
    }

    @Override
    public boolean comment(String text) throws IOException {
        StringBuilder b = new StringBuilder(text.length() + 8);
        forEachLine(text, line -> b.append(line.isEmpty() ? ":" : ": ").append(line).append('\n'));
        return queue(b.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    }

    private boolean queue(byte[] bytes) throws IOException {
        boolean queued = exchange.write(bytes);
        if (queued) {
            lastSendNanos = System.nanoTime();
        }
        return queued;
    }

    /** The HTML format of one event (package-private for tests). */
    static byte[] encode(ServerSentEvent e) {
        StringBuilder b = new StringBuilder(e.data().length() + 32);
        if (e.name() != null) {
            b.append("event: ").append(e.name()).append('\n');
        }
        if (e.id() != null) {
            b.append("id: ").append(e.id()).append('\n');
        }
        if (e.retry() != null) {
            b.append("retry: ").append(e.retry().toMillis()).append('\n');
        }
        forEachLine(e.data(), line -> b.append("data: ").append(line).append('\n'));
        return b.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Splits on CRLF, CR and LF (the three line ends the format knows); an empty text is one empty line. */
    private static void forEachLine(String text, java.util.function.Consumer<String> line) {
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            if (ch == '\r' || ch == '\n') {
                line.accept(text.substring(start, i));
                if (ch == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        line.accept(text.substring(start));
    }

    /** The clock's look: a comment when nothing went out for the heartbeat interval. Clock thread. */
    void heartbeat(long now) {
        if (heartbeatNanos == 0 || now - lastSendNanos < heartbeatNanos) {
            return;
        }
        try {
            // A full queue means bytes are waiting already: the stream is not idle, skip.
            if (exchange.write(HEARTBEAT.clone())) {
                lastSendNanos = now;
            }
        } catch (IOException e) {
            // The stream ended meanwhile: nothing to keep alive.
        }
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        return exchange.whenWritable();
    }

    @Override
    public boolean isOpen() {
        return !exchange.isDone();
    }

    @Override
    public CompletableFuture<Void> closed() {
        return exchange.ended();
    }

    @Override
    public void close() {
        exchange.complete();
    }
}
