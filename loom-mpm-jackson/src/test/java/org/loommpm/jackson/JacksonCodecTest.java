package org.loommpm.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loommpm.json.JsonCodec;
import org.loommpm.json.JsonCodecException;
import org.loommpm.json.JsonCodecs;

class JacksonCodecTest {
    record Item(String name, int quantity, List<String> tags) {
    }

    record Order(long id, List<Item> items, Map<String, Double> prices) {
    }

    /** A type token: {@code new TypeOf<List<Item>>() {}.type()}. */
    abstract static class TypeOf<T> {
        Type type() {
            return ((ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
        }
    }

    private final JacksonCodec codec = new JacksonCodec();

    private <T> T read(String json, Type type) throws IOException {
        return codec.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), type);
    }

    private String write(Object value) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.write(value, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void serviceLoaderFindsIt() {
        assertInstanceOf(JacksonCodec.class, JsonCodecs.find());
        assertEquals("application/json", JsonCodecs.find().mediaType());
    }

    @Test
    void recordsRoundTrip() throws IOException {
        Order order = new Order(7, List.of(new Item("pen", 2, List.of("blue")), new Item("pad", 1, List.of())),
                Map.of("pen", 1.5));
        String json = write(order);
        assertEquals("{\"id\":7,\"items\":[{\"name\":\"pen\",\"quantity\":2,\"tags\":[\"blue\"]},"
                + "{\"name\":\"pad\",\"quantity\":1,\"tags\":[]}],\"prices\":{\"pen\":1.5}}", json);
        assertEquals(order, read(json, Order.class));
    }

    @Test
    void genericTypesThroughAType() throws IOException {
        List<Item> items = read("[{\"name\":\"a\",\"quantity\":1,\"tags\":null}]", new TypeOf<List<Item>>() { }.type());
        assertEquals(List.of(new Item("a", 1, null)), items);
    }

    @Test
    void unknownPropertiesAreIgnored() throws IOException {
        assertEquals(new Item("a", 1, null), read("{\"name\":\"a\",\"quantity\":1,\"colour\":\"red\"}", Item.class));
    }

    @Test
    void badInputIsAJsonCodecException() {
        for (String bad : List.of("", "{", "{\"name\":", "nope", "{\"name\":\"a\"} {}", "{\"quantity\":\"many\"}",
                "{\"quantity\":null}", "[1,2]", "{\"quantity\":1e999999999}", "\"\\ud800\"x")) {
            JsonCodecException e = assertThrows(JsonCodecException.class, () -> read(bad, Item.class), bad);
            assertFalse(e.getMessage().isEmpty());
            assertTrue(e.getMessage().length() <= 503, e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        // bytes that are not valid in the encoding Jackson detects (UTF-32BE here): not a plain IOException
        assertThrows(JsonCodecException.class,
                () -> codec.read(new ByteArrayInputStream(new byte[] {0, 0, 0, '[', (byte) 0xff, (byte) 0xff, 0, 0}),
                        Object.class));
    }

    @Test
    void jsonNullIsNull() throws IOException {
        assertNull(read("null", Item.class));
    }

    @Test
    void aValueThatCannotBeWrittenIsAJsonCodecException() {
        assertThrows(JsonCodecException.class, () -> write(new Object()));
    }

    @Test
    void theStreamsAreNeitherClosedNorFlushed() throws IOException {
        boolean[] seen = new boolean[3];
        InputStream in = new ByteArrayInputStream("{\"name\":\"a\",\"quantity\":1}".getBytes(StandardCharsets.UTF_8)) {
            @Override
            public void close() {
                seen[0] = true;
            }
        };
        codec.read(in, Item.class);
        OutputStream out = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                seen[1] = true;
            }

            @Override
            public void close() {
                seen[2] = true;
            }
        };
        codec.write(new Item("a", 1, List.of()), out);
        assertEquals("{\"name\":\"a\",\"quantity\":1,\"tags\":[]}", out.toString());
        assertFalse(seen[0], "input closed");
        assertFalse(seen[1], "output flushed: it would commit the response head and force chunked");
        assertFalse(seen[2], "output closed");
        // and not on failure either: a half-written value must not complete the response
        assertThrows(JsonCodecException.class, () -> codec.write(List.of(1, new Object()), out));
        assertFalse(seen[1] || seen[2], "flushed or closed on failure");
    }

    @Test
    void anApplicationsMapperIsUsedAsConfigured() throws IOException {
        JsonCodec strict = new JacksonCodec(JacksonCodec.defaultMapper()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));
        assertThrows(JsonCodecException.class, () -> strict.read(new ByteArrayInputStream(
                "{\"name\":\"a\",\"colour\":1}".getBytes(StandardCharsets.UTF_8)), Item.class));
    }
}
