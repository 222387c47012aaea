package org.loommpm.json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * Reads JSON as a Java type and writes a Java value as JSON: what {@code Request.json} and
 * {@code Response.json} use. An implementation is found by {@link JsonCodecs#find()} through
 * {@link java.util.ServiceLoader} ({@code loom-mpm-jackson} provides one), or set with
 * {@link JsonCodecs#use(JsonCodec)}.
 *
 * <p>An implementation is shared by every exchange: it must be thread-safe. It streams: a body
 * is read from the stream as it arrives and a value written to the stream as it is serialised,
 * neither held whole a second time.
 */
public interface JsonCodec {
    /**
     * Reads one JSON value from {@code in} as {@code type}. The stream is read to the end of the
     * value (an implementation may reject content after it); it is not closed.
     *
     * @param <T> the type asked for
     * @param in the JSON text (UTF-8, or the encoding the JSON itself announces by its first bytes)
     * @param type the type to read: a class, or a parameterised type such as {@code List<Item>}
     * @return the value read ({@code null} for the JSON {@code null})
     * @throws JsonCodecException if the input is not JSON, or cannot be read as {@code type}
     *     (a wrong type, a missing or invalid field): the client's fault, never a generic
     *     {@link IOException}
     * @throws IOException if reading {@code in} fails
     */
    <T> T read(InputStream in, Type type) throws IOException;

    /**
     * Writes {@code value} as JSON (UTF-8) to {@code out}, which is not closed.
     *
     * @param value the value to write (records, collections, maps, strings, numbers, {@code null})
     * @param out where to write
     * @throws JsonCodecException if the value cannot be written as JSON (a type the codec does not
     *     know how to serialise): the application's fault
     * @throws IOException if writing to {@code out} fails
     */
    void write(Object value, OutputStream out) throws IOException;

    /**
     * The media type of what {@link #write} produces: the Content-Type {@code Response.json}
     * sets when the handler has set none.
     *
     * @return {@code application/json} unless the implementation says otherwise
     */
    default String mediaType() {
        return "application/json";
    }
}
