package org.loommpm.it;

import java.text.MessageFormat;
import java.util.logging.LogRecord;

/** Log records as the error log writes them: System.Logger's pattern with its parameters filled in. */
final class Logs {
    private Logs() {
    }

    static String text(LogRecord r) {
        Object[] params = r.getParameters();
        return params == null || params.length == 0 ? r.getMessage() : MessageFormat.format(r.getMessage(), params);
    }
}
