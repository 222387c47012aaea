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

    /**
     * {@return an event carrying {@code data} (type "message", no id)}
     *
     * @param data the event's data; each line becomes a {@code data:} line
     */
    public static ServerSentEvent data(String data) {
        return new ServerSentEvent(data, null, null, null);
    }

    /**
     * {@return this event with an id} A client reconnecting sends the last id it saw as
     * {@code Last-Event-ID}.
     *
     * @param eventId the id (one line, no NUL), or {@code null} for none
     * @throws IllegalArgumentException if the id contains CR, LF or NUL
     */
    public ServerSentEvent id(String eventId) {
        return new ServerSentEvent(data, eventId, name, retry);
    }

    /**
     * {@return this event with a type} The type is the {@code event:} field;
     * {@code addEventListener(name, ...)} in a browser.
     *
     * @param eventName the type (one line), or {@code null} for the default "message"
     * @throws IllegalArgumentException if the name contains CR or LF
     */
    public ServerSentEvent name(String eventName) {
        return new ServerSentEvent(data, id, eventName, retry);
    }

    /**
     * {@return this event with a reconnection delay for the client} (the {@code retry:} field)
     *
     * @param delay how long the client waits before reconnecting, or {@code null} for its default
     * @throws IllegalArgumentException if the delay is negative
     */
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
