package org.loommpm.staticfiles.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@link StaticFileHandler} serves by: the documents, types and options the jar's
 * configuration sets (its {@code cli.config.SiteSettings} implements this, so this package needs
 * nothing of the configuration's) or a {@code staticfiles.StaticFiles} builder collects.
 */
public interface StaticFileSettings {
    /** {@return {@code DocumentRoot}, a real directory, or null for none} */
    Path documentRoot();

    /** {@return {@code DirectoryIndex} file names, tried in order} */
    List<String> directoryIndex();

    /** {@return {@code Options Indexes}: list directories that have no index file} */
    boolean indexes();

    /** {@return {@code Options FollowSymLinks}: serve symlinks leading out of DocumentRoot} */
    boolean followSymLinks();

    /** {@return {@code EnableSendfile}: send file bodies with {@code transferTo}} */
    boolean enableSendfile();

    /** {@return {@code FileCacheValid}: how long a small file's lookup is served from memory; zero for never} */
    Duration fileCacheValid();

    /** {@return extension (lowercase, no dot) to media type, consulted before the built-in table} */
    Map<String, String> types();

    /** {@return whether {@code .br}/{@code .gz} siblings are sent to clients accepting them (the jar: always)} */
    default boolean precompressed() {
        return true;
    }

    /** {@return the {@code Cache-Control} value of a file's 200, 206 and 304 answers, or null for none (the jar's: none)} */
    default String cacheControl() {
        return null;
    }
}
