package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ErrorLogTest {
    @TempDir
    Path dir;

    @AfterEach
    void reset() {
        ErrorLog.configure(LogLevels.DEFAULT, null);
    }

    @Test
    void systemLoggerAndJulReachTheErrorLogFilteredPerModule() throws Exception {
        Path f = dir.resolve("error.log");
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 100, m -> { });
        ErrorLog.configure(LogLevels.parse(LogLevels.DEFAULT, List.of("warn", "engine:debug")), w);
        System.Logger engine = System.getLogger("org.loommpm.engine");
        System.Logger cli = System.getLogger("org.loommpm.cli");
        assertTrue(engine.isLoggable(System.Logger.Level.DEBUG));
        assertFalse(cli.isLoggable(System.Logger.Level.INFO));
        engine.log(System.Logger.Level.DEBUG, "LM9001 value {0} and {1}", 1234, "x");
        cli.log(System.Logger.Level.INFO, "LM9002 hidden");
        cli.log(System.Logger.Level.ERROR, "LM9003 shown", new IllegalStateException("boom"));
        new JulBridge();
        java.util.logging.Logger.getLogger("com.example.lib").warning("LM9004 from JUL");
        java.util.logging.Logger.getLogger("com.example.lib").info("LM9005 below warn");
        w.close();
        String log = Files.readString(f);
        assertTrue(log.matches("(?s)\\[\\w{3} \\w{3} \\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\d{4}\\] \\[engine:debug\\] "
                + "\\[pid \\d+\\] LM9001 value 1234 and x\n.*"), log);
        assertFalse(log.contains("LM9002"));
        assertTrue(log.contains("[cli:error]") && log.contains("LM9003 shown\njava.lang.IllegalStateException: boom"), log);
        assertTrue(log.contains("[lib:warn]") && log.contains("LM9004 from JUL"), log);
        assertFalse(log.contains("LM9005"));
    }

    @Test
    void timestampAgreesWithJavaTimeInTheSystemZone() {
        DateTimeFormatter httpd = DateTimeFormatter.ofPattern("'['EEE MMM dd HH:mm:ss.SSS yyyy']'", Locale.ENGLISH)
                .withZone(ZoneId.systemDefault());
        long[] instants = {0, -1, 951_825_909_123L, 1_795_000_000_999L, -86_400_000L * 400 + 5};
        for (long millis : instants) {
            StringBuilder sb = new StringBuilder();
            ErrorLog.timestamp(sb, millis);
            assertEquals(httpd.format(Instant.ofEpochMilli(millis)), sb.toString(), "at " + millis);
        }
        // Every weekday, across a year boundary.
        for (long day = -3; day < 10; day++) {
            long millis = Instant.parse("2026-12-28T12:00:00Z").toEpochMilli() + day * 86_400_000L;
            StringBuilder sb = new StringBuilder();
            ErrorLog.timestamp(sb, millis);
            assertEquals(httpd.format(Instant.ofEpochMilli(millis)), sb.toString(), "at " + millis);
        }
    }

    @Test
    void placeholdersWithoutMessageFormat() {
        assertEquals("a 1234 b {5} c", LoomLoggerFinder.format("a {0} b {5} c", new Object[] {1234}));
        assertEquals("it's 1,234", LoomLoggerFinder.format("it''s {0,number}", new Object[] {1234}));
    }
}
