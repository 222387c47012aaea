package org.loommpm.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import org.loommpm.json.JsonCodecException;

/**
 * Fuzzes the JSON error path: {@link JacksonCodec#read} on any bytes, as each of a few types a
 * handler asks for (a record with nested records and a list, a generic list, a map, an array,
 * {@code Object}), the first byte choosing which. Without {@code JAZZER_FUZZ} it replays
 * {@code JacksonCodecFuzzTestInputs/read} (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is {@link JsonCodecException} (what {@code Request.json}
 * answers 400), never another runtime exception or a plain {@link IOException} (which would be a
 * 500 or a dropped connection); its message is one line of at most 503 characters (it goes to the
 * log); a value that was read is written back without failing, and reads back as the same value.
 */
class JacksonCodecFuzzTest {
    record Item(String name, int quantity, List<String> tags) {
    }

    record Order(long id, List<Item> items, Map<String, Item> byName, boolean paid) {
    }

    private static final JacksonCodec CODEC = new JacksonCodec();
    private static final Type[] TYPES = {Order.class, listOf(Item.class), Map.class, int[].class, Object.class,
        String.class};

    @FuzzTest(maxDuration = "10m")
    void read(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        Type type = TYPES[(input[0] & 0xFF) % TYPES.length];
        Object value;
        try {
            value = CODEC.read(new ByteArrayInputStream(input, 1, input.length - 1), type);
        } catch (JsonCodecException e) {
            String m = e.getMessage();
            assertTrue(m != null && !m.isEmpty() && m.length() <= 503, m);
            assertFalse(m.chars().anyMatch(c -> c < 0x20), m);
            return;
        }
        if (type == Object.class || type == Map.class) {
            return; // numbers read as doubles may not survive the trip (1e400 is Infinity)
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CODEC.write(value, out);
        Object back = CODEC.read(new ByteArrayInputStream(out.toByteArray()), type);
        if (value instanceof int[] a) {
            assertTrue(java.util.Arrays.equals(a, (int[]) back));
        } else {
            assertEquals(value, back);
        }
    }

    private static Type listOf(Type element) {
        return new ParameterizedType() {
            @Override
            public Type[] getActualTypeArguments() {
                return new Type[] {element};
            }

            @Override
            public Type getRawType() {
                return List.class;
            }

            @Override
            public Type getOwnerType() {
                return null;
            }
        };
    }
}
