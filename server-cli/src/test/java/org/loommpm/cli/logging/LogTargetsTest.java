package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.logging.LogSettings.AccessLogSpec;

class LogTargetsTest {
    private static final String COMMON = "%h %l %u %t \"%r\" %>s %b";

    @Test
    void aCustomLogToDevNullIsNeitherOpenedNorFormatted(@TempDir Path dir) throws Exception {
        Path kept = dir.resolve("access.log");
        LogSettings logs = new LogSettings("/dev/stderr", LogLevels.DEFAULT, List.of(
                new AccessLogSpec("/dev/null", COMMON), new AccessLogSpec(kept.toString(), COMMON)));
        try (LogTargets targets = new LogTargets()) {
            List<AccessLogFilter.Sink> sinks = targets.apply(logs, false, new ArrayList<>());
            assertEquals(1, sinks.size(), "only the kept log gets a writer");
            assertEquals(kept.toString(), sinks.get(0).writer().target());
        }
        assertTrue(Files.exists(kept));
    }

    @Test
    void onlyDevNullMeansNoAccessLogAtAll() throws Exception {
        LogSettings logs = new LogSettings("/dev/stderr", LogLevels.DEFAULT,
                List.of(new AccessLogSpec("/dev/null", COMMON)));
        try (LogTargets targets = new LogTargets()) {
            assertEquals(List.of(), targets.apply(logs, false, new ArrayList<>()));
        }
    }
}
