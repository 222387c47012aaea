package org.loommpm.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the records logged under {@code org.loommpm} (System.Logger goes to java.util.logging). */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("org.loommpm");
    private final Level before = logger.getLevel();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture() {
        logger.setLevel(Level.ALL);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord r) {
        records.add(r);
    }

    /** Records at {@code level} whose message starts with {@code id}. */
    public List<LogRecord> find(Level level, String id) {
        return records.stream().filter(r -> r.getLevel().equals(level) && r.getMessage().startsWith(id)).toList();
    }

    /** Every record at SEVERE (System.Logger's ERROR). */
    public List<LogRecord> errors() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(before);
    }
}
