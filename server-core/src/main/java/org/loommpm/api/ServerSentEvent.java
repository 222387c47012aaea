package org.loommpm.api;

import java.time.Duration;
import java.util.Objects;

/**
 * One Server-Sent Event (the HTML {@code text/event-stream} format): data, and optionally an
 * event type, an id (what a reconnecting client sends back as {@code Last-Event-ID}) and a
 * reconnection delay. Immutable:
 * {@code ServerSentEvent.data("42").id("7").name("price")}.
 *
 * <p>Data may span lines (each becomes a {@code data:} line; CR, LF and CRLF all separate lines).
 * The id and the name are single lines: a CR, LF or NUL in them is refused, since it would let
 * the value forge fields of its own.
 *
 * @param data the payload (may be empty, never null)
 * @param id the event id, or {@code null}
 * @param name the event type ({@code event:} field), or {@code null} for the default "message"
 * @param retry the reconnection delay the client should use, or {@code null}
 */
public record ServerSentEvent(String data, String id, String name, Duration retry) {
    /** Checks the single-line fields. */
    public ServerSentEvent {
        Objects.requireNonNull(data, "data");
        singleLine("id", id, true);
        singleLine("name", name, false);
        if (retry != null && retry.isNegative()) {
            throw new IllegalArgumentException("retry must not be negative: " + retry);
        }
    }

    /** An event carrying {@code data} (type "message", no id). */
    public static ServerSentEvent data(String data) {
        return new ServerSentEvent(data, null, null, null);
    }

    /** This event with an id. */
    public ServerSentEvent id(String eventId) {
        return new ServerSentEvent(data, eventId, name, retry);
    }

    /** This event with a type ({@code event:} field; {@code addEventListener(name, ...)} in a browser). */
    public ServerSentEvent name(String eventName) {
        return new ServerSentEvent(data, id, eventName, retry);
    }

    /** This event with a reconnection delay for the client. */
    public ServerSentEvent retry(Duration delay) {
        return new ServerSentEvent(data, id, name, delay);
    }

    private static void singleLine(String field, String value, boolean noNul) {
        if (value == null) {
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '\r' || ch == '\n' || (noNul && ch == 0)) {
                throw new IllegalArgumentException("event " + field + " must be one line without CR, LF or NUL");
            }
        }
    }
}
