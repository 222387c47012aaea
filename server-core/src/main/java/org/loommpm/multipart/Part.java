package org.loommpm.multipart;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One part of a {@code multipart/form-data} body: a form field or a file, with its own header
 * fields. Given by a {@link MultipartReader}, in one of two states:
 * <ul>
 * <li><b>streaming</b> ({@link MultipartReader#next()}): {@link #content()} reads straight from the
 *     request body, once; the reader moving on skips what is left. {@link #size()} is known once
 *     the content was read to its end.</li>
 * <li><b>stored</b> ({@link MultipartReader#readAll()}): the content is in memory or in a
 *     temporary file; {@link #content()} opens a new stream each time and {@link #saveTo} moves
 *     the file.</li>
 * </ul>
 * Valid until its reader is closed (for {@code Request.multipart()}, the end of the handler's
 * call): save what must outlive it with {@link #saveTo}. Not thread-safe.
 */
public final class Part {
    private final MultipartReader reader;
    private final String name;
    private final String filename;
    private final String[] headerNames;
    private final String[] headerValues;
    /** Content bytes read (or skipped) from the body so far. */
    private long read;
    /** The content's size once known, else -1. */
    private long size = -1;
    private InputStream stream;
    /** The reader moved on before the content was read to its end: the rest was skipped. */
    private boolean skipped;
    /** A stored part's content in memory, or {@code null}. */
    private byte[] data;
    /** A stored part's content in a file, or {@code null}. */
    private Path file;

    Part(MultipartReader reader, String name, String filename, String[] headerNames, String[] headerValues) {
        this.reader = reader;
        this.name = name;
        this.filename = filename;
        this.headerNames = headerNames;
        this.headerValues = headerValues;
    }

    /** {@return the field name ({@code name} of its Content-Disposition)} */
    public String name() {
        return name;
    }

    /**
     * The file name the client gave ({@code filename} of its Content-Disposition, RFC 7578
     * §4.2), as sent: it may contain anything, a path, {@code ..}; never use it as a path
     * without checking it.
     *
     * @return the file name, or {@code null} for a part that is not a file (a plain field); an
     *         empty string for a file input left empty by a browser
     */
    public String filename() {
        return filename;
    }

    /**
     * The part's Content-Type as sent.
     *
     * @return its value, or {@code null} when the part has none (RFC 7578 §4.4: then
     *         {@code text/plain})
     */
    public String contentType() {
        return header("Content-Type");
    }

    /**
     * A header field of this part (not of the request).
     *
     * @param name the field name (case-insensitive)
     * @return its first value, or {@code null}
     */
    public String header(String name) {
        for (int i = 0; i < headerNames.length; i++) {
            if (headerNames[i].equalsIgnoreCase(name)) {
                return headerValues[i];
            }
        }
        return null;
    }

    /** {@return the names of this part's header fields, in order, each once (as first spelled)} */
    public List<String> headerNames() {
        List<String> out = new ArrayList<>(headerNames.length);
        for (String n : headerNames) {
            if (out.stream().noneMatch(n::equalsIgnoreCase)) {
                out.add(n);
            }
        }
        return List.copyOf(out);
    }

    /**
     * The content. Streaming: the one stream over the body (the same object on every call),
     * which ends where the part ends; it throws {@link MultipartException}s like the reader
     * (LM2724, LM2728, LM2729) and an {@link IOException} once the reader moved on before it
     * was read to its end. Stored: a new stream over the memory or the file on every call.
     *
     * @return the content
     * @throws IOException when the stored file cannot be opened
     * @throws IllegalStateException when the reader is closed
     */
    public InputStream content() throws IOException {
        checkOpen();
        if (data != null) {
            return new ByteArrayInputStream(data);
        }
        if (file != null) {
            return Files.newInputStream(file);
        }
        if (stream == null) {
            stream = new PartStream();
        }
        return stream;
    }

    /**
     * The content as text, in the charset of the part's Content-Type (UTF-8 when it names none):
     * what a form field holds. Read into memory, so bounded by
     * {@link MultipartLimits#maxTextSize()}. A streaming part must not have been read before.
     *
     * @return the text
     * @throws MultipartException 413 (LM2730) for a part larger than the text limit, 415
     *         (LM2733) for a charset the JDK does not know, or as {@link #content()}
     * @throws IOException when the content cannot be read
     * @throws IllegalStateException when the reader is closed, or a streaming part was read before
     */
    public String text() throws IOException {
        int max = reader.limits().maxTextSize();
        byte[] bytes;
        if (data != null) {
            bytes = data;
        } else if (file != null && size > max) {
            bytes = null;
        } else {
            if (file == null) {
                checkUnread();
            }
            try (InputStream in = content()) {
                bytes = in.readNBytes(max + 1);
            }
        }
        if (bytes == null || bytes.length > max) {
            throw new MultipartException(413, "LM2730 multipart part '" + MultipartReader.printable(name, 80)
                    + "' larger than the text limit of " + max + " bytes");
        }
        return new String(bytes, charset());
    }

    /**
     * Writes the content to {@code target}, replacing a file there. A stored part in a temporary
     * file is moved (no copy when both are on one file system), and the file is then the
     * application's: the reader no longer deletes it. A streaming part is copied from the body
     * (it must not have been read before); if that fails, the partly written target is deleted.
     *
     * @param target the file to write
     * @return the bytes written
     * @throws IOException when the target cannot be written, or the body cannot be read
     * @throws MultipartException as {@link #content()}
     * @throws IllegalStateException when the reader is closed, or a streaming part was read before
     */
    public long saveTo(Path target) throws IOException {
        checkOpen();
        if (data != null) {
            Files.write(target, data);
            return data.length;
        }
        if (file != null) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
            reader.disown(file);
            file = target;
            return size;
        }
        checkUnread();
        boolean ok = false;
        try (OutputStream out = Files.newOutputStream(target)) {
            long n = reader.transferContent(this, out, target);
            ok = true;
            return n;
        } finally {
            if (!ok) {
                Files.deleteIfExists(target);
            }
        }
    }

    /**
     * The content's length in bytes: known for a stored part, and for a streaming part once its
     * content was read (or skipped) to its end.
     *
     * @return the size, or -1 while unknown
     */
    public long size() {
        return size;
    }

    /** {@return whether the content is stored (in memory or a file): readable again, in any order} */
    public boolean isStored() {
        return data != null || file != null;
    }

    @Override
    public String toString() {
        return "Part[" + MultipartReader.printable(name, 80)
                + (filename == null ? "" : ", filename=" + MultipartReader.printable(filename, 80))
                + (size < 0 ? "" : ", " + size + " bytes") + "]";
    }

    // ---- the reader's side ----

    /** Whether a stored part's content is held in memory (for tests of the spool threshold). */
    boolean inMemory() {
        return data != null;
    }

    /** Counts {@code n} more content bytes read or skipped; returns the total. */
    long addRead(int n) {
        read += n;
        return read;
    }

    /** The reader moves on before the content was read to its end. */
    void skipped() {
        skipped = true;
    }

    /** The part's closing delimiter was read: its size is known. */
    void ended() {
        size = read;
    }

    /** Reads the (streaming, unread) content into memory or a temporary file. */
    void store() throws IOException {
        checkUnread();
        byte[] mem = new byte[0];
        int n = 0;
        byte[] chunk = new byte[8192];
        while (true) {
            int r = reader.readContent(this, chunk, 0, chunk.length);
            if (r < 0) {
                break;
            }
            if (!reader.reserveMemory(r)) {
                // Past the threshold: everything of this part goes to a file.
                Path f = reader.newSpoolFile();
                try (OutputStream out = Files.newOutputStream(f)) {
                    write(out, mem, n, f);
                    write(out, chunk, r, f);
                    reader.transferContent(this, out, f);
                }
                file = f;
                size = read;
                reader.releaseMemory(n); // what this part held in memory is free again
                return;
            }
            if (n + r > mem.length) {
                mem = Arrays.copyOf(mem, Math.max(n + r, Math.max(256, mem.length * 2)));
            }
            System.arraycopy(chunk, 0, mem, n, r);
            n += r;
        }
        data = n == mem.length ? mem : Arrays.copyOf(mem, n);
        size = n;
    }

    private static void write(OutputStream out, byte[] b, int n, Path f) throws IOException {
        try {
            out.write(b, 0, n);
        } catch (IOException e) {
            throw new IOException("LM2731 could not write a multipart part to " + f + ": " + e, e);
        }
    }

    private Charset charset() {
        String ct = contentType();
        String cs = ct == null ? null : HeaderParams.param(ct, "charset");
        if (cs == null || cs.isEmpty()) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(cs);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new MultipartException(415, "LM2733 multipart part '" + MultipartReader.printable(name, 80)
                    + "' in a charset not supported: " + MultipartReader.printable(cs, 40));
        }
    }

    private void checkOpen() {
        if (reader.isClosed()) {
            throw new IllegalStateException("the multipart reader is closed");
        }
    }

    private void checkUnread() {
        checkOpen();
        if (read > 0 || size >= 0 || !reader.streaming(this)) {
            throw new IllegalStateException("part '" + MultipartReader.printable(name, 80)
                    + "' was already read, or the reader moved past it");
        }
    }

    /** The streaming content: the body's bytes up to the part's closing delimiter. */
    private final class PartStream extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (reader.streaming(Part.this)) {
                return reader.readContent(Part.this, b, off, len);
            }
            if (size >= 0 && !skipped) {
                return -1; // read to its end before the reader moved on
            }
            throw new IOException(reader.isClosed() ? "the multipart reader is closed"
                    : "the multipart reader moved past part '" + MultipartReader.printable(name, 80) + "'");
        }

        @Override
        public int available() {
            return reader.streaming(Part.this) ? reader.buffered() : 0;
        }
    }
}
