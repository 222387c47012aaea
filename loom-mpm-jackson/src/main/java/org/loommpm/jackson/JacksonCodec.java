package org.loommpm.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Objects;
import org.loommpm.json.JsonCodec;
import org.loommpm.json.JsonCodecException;

/**
 * The {@link JsonCodec} of Jackson databind: one {@link ObjectMapper}, shared by every exchange
 * (a mapper is thread-safe once configured, and caches what it learnt of each type).
 *
 * <p>The no-argument constructor, the one {@link java.util.ServiceLoader} calls, makes a mapper
 * with Jackson's defaults except:
 * <ul>
 *   <li>{@code FAIL_ON_UNKNOWN_PROPERTIES} off: a field the type does not have is ignored, so a
 *       client that sends more than the server reads (a newer client, an extra field for
 *       another service) is served, as a tolerant reader should; the price is that a misspelt
 *       field goes unnoticed (it is simply missing). An API that wants unknown fields refused
 *       passes its own mapper with it on;</li>
 *   <li>{@code FAIL_ON_TRAILING_TOKENS} on: a body must be one JSON value ({@code {}} followed
 *       by anything else is a 400, not silently half-read);</li>
 *   <li>{@code FAIL_ON_NULL_FOR_PRIMITIVES} on: {@code null} for an {@code int} is a 400, not 0.</li>
 * </ul>
 * Records are read through their canonical constructor and written by their components. Dates
 * from {@code java.time} need Jackson's {@code jackson-datatype-jsr310} module: register it on a
 * mapper of your own and give it to {@link #JacksonCodec(ObjectMapper)}, then
 * {@link org.loommpm.json.JsonCodecs#use(JsonCodec)}.
 *
 * <p>Reading and writing stream: a body is parsed as it arrives through Jackson's own small
 * buffer, a value is serialised into the response's stream (which sends a Content-Length when the
 * whole document fits its buffer, else chunks) and the response's stream is never flushed or
 * closed by the codec, so a value that fails half-way is not passed off as the answer.
 *
 * <p>Errors: input that is not JSON, or not of the type asked for, or beyond Jackson's stream
 * read constraints (nesting depth, number and string lengths), throws {@link JsonCodecException}
 * with Jackson's message (control characters replaced, cut at 500 characters) for the log.
 */
public final class JacksonCodec implements JsonCodec {
    /** The longest codec message passed on to the log. */
    private static final int MAX_MESSAGE = 500;

    private final ObjectMapper mapper;
    private final ObjectReader reader;
    private final ObjectWriter writer;

    /** A codec with its own mapper, configured as the class comment says. */
    public JacksonCodec() {
        this(defaultMapper());
    }

    /**
     * A codec around an application's mapper, used as it is configured (none of the defaults
     * above is applied to it). Do not reconfigure the mapper afterwards.
     *
     * @param mapper the mapper
     */
    public JacksonCodec(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        // The exchange owns the streams: Jackson neither closes nor flushes them (a flush would
        // commit the response's head early and force chunked framing on a small document).
        this.reader = mapper.reader().without(JsonParser.Feature.AUTO_CLOSE_SOURCE);
        this.writer = mapper.writer()
                .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
                .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
    }

    /**
     * {@return a new mapper configured as the no-argument constructor's} A starting point for an
     * application's own: {@code new JacksonCodec(JacksonCodec.defaultMapper().registerModule(...))}.
     */
    public static ObjectMapper defaultMapper() {
        return new ObjectMapper()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /** {@return the mapper this codec reads and writes with} */
    public ObjectMapper mapper() {
        return mapper;
    }

    @Override
    public <T> T read(InputStream in, Type type) throws IOException {
        JavaType javaType;
        try {
            javaType = mapper.getTypeFactory().constructType(type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a type Jackson can read: " + type, e);
        }
        try {
            return reader.forType(javaType).readValue(in);
        } catch (JsonProcessingException | CharConversionException e) {
            // CharConversionException: bytes that are not valid in the encoding Jackson detected
            // (UTF-32): bad input too, though not a JsonProcessingException.
            throw new JsonCodecException(message(e), e);
        }
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
        try {
            writer.writeValue(out, value);
        } catch (JsonProcessingException e) {
            throw new JsonCodecException(message(e), e);
        }
    }

    /** Jackson's message, safe for a log line: one line, bounded. */
    private static String message(Exception e) {
        String m = String.valueOf(e.getMessage());
        StringBuilder sb = new StringBuilder(Math.min(m.length(), MAX_MESSAGE + 3));
        for (int i = 0; i < m.length() && sb.length() < MAX_MESSAGE; i++) {
            char c = m.charAt(i);
            sb.append(c < 0x20 || c == 0x7F ? ' ' : c);
        }
        if (m.length() > MAX_MESSAGE) {
            sb.append("...");
        }
        return sb.toString();
    }
}
