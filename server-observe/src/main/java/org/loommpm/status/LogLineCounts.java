package org.loommpm.status;

import java.util.SortedMap;

/**
 * Lines written to the error log per log id ({@code LM0401}: 12), which the status page shows
 * beside the engine's counts when it is given them: the jar's error log counts every line it
 * writes. An embedding application whose logging counts them can give its own.
 */
public interface LogLineCounts {
    /** {@return lines written since the process started, per id, in id order; ids never written left out} */
    SortedMap<String, Long> byId();
}
