package org.loommpm.staticfiles.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The settings a test serves by: what the jar's {@code SiteSettings} would give. */
record TestSite(Path documentRoot, List<String> directoryIndex, boolean indexes, boolean followSymLinks,
                boolean enableSendfile, Duration fileCacheValid, Map<String, String> types)
        implements StaticFileSettings {
}
