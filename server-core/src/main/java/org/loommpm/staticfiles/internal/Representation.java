package org.loommpm.staticfiles.internal;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.loommpm.http.HttpDate;

/**
 * One file as it is sent: where it is, what its attributes were when it was looked at, and the
 * header values derived from them (formatted once, here). The bytes are held for a file kept in
 * the {@link FileCache}, so a cached response carries exactly the content its validators
 * describe even if the file changes meanwhile.
 *
 * @param file the file sent (the original, or its {@code .br}/{@code .gz} sibling)
 * @param size its size in bytes
 * @param modified its modification time, as precise as the file system keeps it
 * @param fileKey its identity (device and inode), or null where the file system has none
 * @param modifiedMillis the modification time in whole seconds (HTTP dates have no more)
 * @param etag the strong entity tag, quoted: {@code "size-mtime[-coding]"} in hex
 * @param lastModified the {@code Last-Modified} value
 * @param type the media type (the original's, for a precompressed sibling)
 * @param encoding {@code br}, {@code gzip}, or null for the file as it is
 * @param bytes the whole content, or null when it is read from the file when sent
 */
record Representation(Path file, long size, FileTime modified, Object fileKey, long modifiedMillis, String etag,
                      String lastModified, String type, String encoding, byte[] bytes) {

    /** A file's representation from its attributes, without its bytes. */
    static Representation of(Path file, BasicFileAttributes attrs, String type, String encoding) {
        long size = attrs.size();
        FileTime modified = attrs.lastModifiedTime();
        long micros = modified.to(TimeUnit.MICROSECONDS);
        String etag = "\"" + Long.toHexString(size) + "-" + Long.toHexString(micros)
                + (encoding != null ? "-" + encoding : "") + "\"";
        long millis = modified.toMillis() / 1000 * 1000;
        return new Representation(file, size, modified, attrs.fileKey(), millis, etag, HttpDate.format(millis),
                type, encoding, null);
    }

    /** The same with its content. */
    Representation withBytes(byte[] content) {
        return new Representation(file, size, modified, fileKey, modifiedMillis, etag, lastModified, type, encoding,
                content);
    }

    /** Whether {@code other} describes the same file content (same identity, size and time). */
    boolean sameFile(Representation other) {
        return other != null && other.size == size && other.modified.equals(modified)
                && Objects.equals(other.fileKey, fileKey) && other.file.equals(file);
    }
}
