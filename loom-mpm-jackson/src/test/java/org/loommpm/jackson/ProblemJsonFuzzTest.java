package org.loommpm.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Problem;

/**
 * Fuzzes {@link Problem#toJson()}, server-core's hand-written JSON: any strings (quotes,
 * backslashes, control characters, lone surrogates, U+2028) and any status give a document that
 * a strict Jackson (no trailing tokens, no unknown members, no lenient features) reads back, from
 * its UTF-8 bytes as the client gets them, as an equal problem. Without {@code JAZZER_FUZZ} it
 * replays {@code ProblemJsonFuzzTestInputs/toJson} (docs/fuzzing.md).
 */
class ProblemJsonFuzzTest {
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonParser.Feature.ALLOW_COMMENTS)
            .build();

    @FuzzTest(maxDuration = "10m")
    void toJson(FuzzedDataProvider data) throws IOException {
        int status = data.consumeInt(100, 599);
        String type = data.consumeBoolean() ? null : data.consumeString(200);
        String title = data.consumeBoolean() ? null : data.consumeString(200);
        String instance = data.consumeBoolean() ? null : data.consumeString(200);
        String detail = data.consumeBoolean() ? null : data.consumeRemainingAsString();
        Problem p = new Problem(type, title, status, detail, instance);
        byte[] wire = p.toJson().getBytes(StandardCharsets.UTF_8);
        assertEquals(p, STRICT.readValue(wire, Problem.class), p.toJson());
    }
}
