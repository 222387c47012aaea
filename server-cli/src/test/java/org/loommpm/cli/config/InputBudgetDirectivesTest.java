package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.config.InputBudgetSettings;

/** {@code InputBudget} as a size or a share of the heap, {@code WebSocketMessageTimeout}, and their bounds. */
class InputBudgetDirectivesTest {
    @TempDir
    Path dir;

    private InputBudgetSettings parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text).engine().inputBudget();
    }

    @Test
    void sizesSharesAndTheDeadline() throws Exception {
        assertEquals(InputBudgetSettings.DEFAULTS, parse(""));
        assertEquals(64L << 20, parse("InputBudget 64m").childBytes(1L << 30, 1));
        assertEquals(2L << 30, parse("InputBudget 2G").childBytes(1L << 30, 1));
        assertEquals(3_000_000, parse("InputBudget 3000000").childBytes(1L << 30, 1));
        assertEquals((1L << 30) / 100 * 10 / 2, parse("InputBudget 10%").childBytes(1L << 30, 2),
                "a share of the heap, divided among the children that start together");
        assertEquals(Duration.ofSeconds(5), parse("WebSocketMessageTimeout 5").webSocketMessageTimeout());
        assertEquals(InputBudgetSettings.MIN_BYTES, parse("").childBytes(1 << 20, 1), "never below the minimum");
    }

    @Test
    void outOfRangeValuesAreErrors() {
        for (String bad : new String[] {"InputBudget 1k", "InputBudget 0%", "InputBudget 95%", "InputBudget lots",
                "InputBudget 0", "WebSocketMessageTimeout 0"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> parse(bad), bad);
            assertTrue(e.getMessage().contains(bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }
}
