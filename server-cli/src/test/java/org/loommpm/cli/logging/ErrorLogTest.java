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
import java.util.TimeZone;
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
        AsyncLogWriter w = new AsyncLogWriter(f.toString(), 1 << 16, m -> { });
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

    /** Instants around DST changes (2026 in the zones below), the epoch and before it. */
    private static final long[] INSTANTS = {
        0, -1, -86_400_000L * 400 + 5, 951_825_909_123L,
        Instant.parse("2026-03-08T06:59:59.999Z").toEpochMilli(), Instant.parse("2026-03-08T07:00:00Z").toEpochMilli(),
        Instant.parse("2026-03-29T00:59:59Z").toEpochMilli(), Instant.parse("2026-03-29T01:00:00.500Z").toEpochMilli(),
        Instant.parse("2026-04-04T14:59:59Z").toEpochMilli(), Instant.parse("2026-04-04T15:00:00Z").toEpochMilli(),
        Instant.parse("2026-10-25T00:59:59Z").toEpochMilli(), Instant.parse("2026-10-25T01:00:00Z").toEpochMilli(),
        Instant.parse("2026-11-01T05:59:59Z").toEpochMilli(), Instant.parse("2026-11-01T06:00:00Z").toEpochMilli(),
        Instant.parse("2026-12-31T23:59:59.999Z").toEpochMilli(), 4_102_444_800_000L + 86_400_000L * 200};
    private static final String[] ZONES = {
        "UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns"};

    @Test
    void timestampAgreesWithJavaTimeInEveryZone() {
        TimeZone saved = TimeZone.getDefault();
        try {
            for (String zone : ZONES) {
                TimeZone.setDefault(TimeZone.getTimeZone(zone));
                DateTimeFormatter httpd = DateTimeFormatter.ofPattern("'['EEE MMM dd HH:mm:ss.SSS yyyy']'", Locale.ENGLISH)
                        .withZone(ZoneId.of(zone));
                DateTimeFormatter clf = DateTimeFormatter.ofPattern("'['dd/MMM/yyyy:HH:mm:ss xx']'", Locale.ENGLISH)
                        .withZone(ZoneId.of(zone));
                for (long millis : INSTANTS) {
                    StringBuilder sb = new StringBuilder();
                    ErrorLog.timestamp(sb, millis);
                    assertEquals(httpd.format(Instant.ofEpochMilli(millis)), sb.toString(), zone + " at " + millis);
                    long second = Math.floorDiv(millis, 1000);
                    assertEquals(clf.format(Instant.ofEpochSecond(second)), ClfTime.render(second), zone + " at " + second);
                }
                // Every weekday, across a year boundary.
                for (long day = -3; day < 10; day++) {
                    long millis = Instant.parse("2026-12-28T12:00:00Z").toEpochMilli() + day * 86_400_000L;
                    StringBuilder sb = new StringBuilder();
                    ErrorLog.timestamp(sb, millis);
                    assertEquals(httpd.format(Instant.ofEpochMilli(millis)), sb.toString(), zone + " at " + millis);
                }
            }
        } finally {
            TimeZone.setDefault(saved);
        }
    }

    @Test
    void placeholdersWithoutMessageFormat() {
        assertEquals("a 1234 b {5} c", LoomLoggerFinder.format("a {0} b {5} c", new Object[] {1234}));
        assertEquals("it's 1,234", LoomLoggerFinder.format("it''s {0,number}", new Object[] {1234}));
    }
}
