package org.loommpm.multipart;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A streaming {@code multipart/form-data} parser (RFC 7578, framing of RFC 2046 §5.1.1): reads a
 * body from an {@link InputStream} as the handler asks for parts, holding one buffer (32 KiB) and
 * one part's header block, never a part's content.
 *
 * <p>Two ways to read, which may be mixed:
 * <ul>
 * <li>{@link #next()} gives the parts one at a time. A part's {@link Part#content()} reads straight
 *     from the body; moving to the next part skips what is left of this one, which cannot be read
 *     afterwards. An upload of any size costs no memory and no disk.</li>
 * <li>{@link #readAll()} reads every remaining part and stores it: in memory while the stored
 *     parts total at most {@link MultipartLimits#spoolThreshold()}, else in a temporary file in
 *     {@link MultipartLimits#spoolDirectory()}. Stored parts can be read in any order and more
 *     than once, and {@linkplain Part#saveTo moved} to their final place without a copy.</li>
 * </ul>
 *
 * <p>{@link #close()} deletes every temporary file this reader made and has not moved away, and is
 * the only cleanup needed: {@code Request.multipart()}'s reader is closed by the server when the
 * handler's call ends (returned, thrown, or the client went away), so its parts and their files
 * are valid during that call only. A failure in {@link #readAll()} closes the reader at once.
 *
 * <p>Failures: a {@link MultipartException} for a body the client got wrong (400), past a limit
 * (413) or of an unknown type or charset (415), each message starting with its log id; an
 * {@link IOException} when the body cannot be read (the client went away) or a temporary file
 * cannot be written (LM2731). Not thread-safe: one handler reads it.
 */
public final class MultipartReader implements AutoCloseable {
    /** The media type this reader parses. */
    public static final String MEDIA_TYPE = "multipart/form-data";
    /** RFC 2046 §5.1.1: a boundary is 1 to 70 characters. */
    public static final int MAX_BOUNDARY_LENGTH = 70;

    private static final System.Logger LOG = System.getLogger("org.loommpm.multipart");
    private static final int BUFFER = 32 * 1024;
    private static final byte CR = '\r';
    private static final byte LF = '\n';
    /** Eight bytes of a buffer as one little-endian long, for {@link #nextCr}. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long CRS = 0x0D0D0D0D0D0D0D0DL;

    private final InputStream in;
    private final MultipartLimits limits;
    /** {@code CRLF "--" boundary}: what ends a part's content (the first one is found after a virtual CRLF). */
    private final byte[] delimiter;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int lim;
    private boolean eof;
    /** Where in {@code buf} a whole delimiter starts at or after {@code pos}, or -1 when none is known. */
    private int delimiterAt = -1;
    /** {@code buf[pos, clearTo)} is known to hold no delimiter's start: content that can be handed out. */
    private int clearTo;
    private long bytesRead;
    private int parts;
    /** Inside a preamble or a part's content: its closing delimiter has not been read. */
    private boolean inContent = true;
    private boolean started;
    private boolean done;
    private boolean closed;
    /** The body's first fault: every later read fails with it too, the parser's state being unknown. */
    private MultipartException failure;
    private Part current;
    /** A part header line being read; grows up to the part header limit. */
    private byte[] line = new byte[256];
    /** Bytes of stored parts held in memory, against the spool threshold. */
    private long memoryHeld;
    /** Temporary files this reader made and still owns (deleted by {@link #close()}). */
    private final List<Path> spooled = new ArrayList<>();

    /**
     * A reader of {@code body} with a boundary already known.
     *
     * @param body the request body, read as parts are asked for; not closed by this reader
     * @param boundary the boundary, without its leading {@code --}
     * @param limits the limits and where to spool
     * @throws MultipartException 400 (LM2721) when the boundary is not 1 to 70 of RFC 2046's
     *         characters, not ending with a space
     */
    public MultipartReader(InputStream body, String boundary, MultipartLimits limits) {
        this.in = java.util.Objects.requireNonNull(body, "body");
        this.limits = java.util.Objects.requireNonNull(limits, "limits");
        checkBoundary(boundary);
        byte[] b = boundary.getBytes(StandardCharsets.US_ASCII);
        this.delimiter = new byte[b.length + 4];
        delimiter[0] = CR;
        delimiter[1] = LF;
        delimiter[2] = '-';
        delimiter[3] = '-';
        System.arraycopy(b, 0, delimiter, 4, b.length);
        // The body's first delimiter may start it, with no line before: a CRLF put in front lets
        // one search find it (and a preamble, ended by CRLF, ends the same way).
        buf[0] = CR;
        buf[1] = LF;
        lim = 2;
    }

    /**
     * A reader for a request with this Content-Type.
     *
     * @param body the request body; not closed by this reader
     * @param contentType the request's Content-Type, or {@code null}
     * @param limits the limits and where to spool
     * @return the reader, positioned before the first part
     * @throws MultipartException 415 (LM2722) when the type is not {@value #MEDIA_TYPE}, 400 when
     *         its boundary is missing (LM2720) or invalid (LM2721)
     */
    public static MultipartReader of(InputStream body, String contentType, MultipartLimits limits) {
        return new MultipartReader(body, boundary(contentType), limits);
    }

    /**
     * Whether a Content-Type is {@value #MEDIA_TYPE} (any case, parameters allowed).
     *
     * @param contentType the field's value, or {@code null}
     * @return whether it is
     */
    public static boolean isMultipart(String contentType) {
        return contentType != null && HeaderParams.type(contentType).equals(MEDIA_TYPE);
    }

    /**
     * The boundary parameter of a {@value #MEDIA_TYPE} Content-Type.
     *
     * @param contentType the field's value, or {@code null}
     * @return the boundary, unquoted
     * @throws MultipartException 415 (LM2722) when the type is not {@value #MEDIA_TYPE}, 400 when
     *         the boundary is missing (LM2720) or invalid (LM2721)
     */
    public static String boundary(String contentType) {
        if (!isMultipart(contentType)) {
            throw new MultipartException(415, "LM2722 not a " + MEDIA_TYPE + " body: Content-Type "
                    + (contentType == null ? "absent" : printable(contentType, 100)));
        }
        String b = HeaderParams.param(contentType, "boundary");
        if (b == null || b.isEmpty()) {
            throw new MultipartException(400, "LM2720 " + MEDIA_TYPE + " without a boundary parameter");
        }
        checkBoundary(b);
        return b;
    }

    /** RFC 2046 §5.1.1's {@code boundary}: 1-70 {@code bchars}, the last not a space. */
    private static void checkBoundary(String b) {
        boolean ok = b != null && !b.isEmpty() && b.length() <= MAX_BOUNDARY_LENGTH && b.charAt(b.length() - 1) != ' ';
        for (int i = 0; ok && i < b.length(); i++) {
            char c = b.charAt(i);
            ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || "'()+_,-./:=? ".indexOf(c) >= 0;
        }
        if (!ok) {
            throw new MultipartException(400, "LM2721 invalid multipart boundary (1 to 70 of RFC 2046's characters, "
                    + "not ending with a space): " + (b == null ? "null" : printable(b, 80)));
        }
    }

    /**
     * The next part. What is left unread of the previous part is skipped (and counted against the
     * limits); its content can no longer be read.
     *
     * @return the next part, or {@code null} after the last one (the closing delimiter was read)
     * @throws MultipartException 400 for broken framing (LM2723), a body that ends before its
     *         closing delimiter (LM2724) or malformed part headers (LM2725); 413 past a limit
     *         (LM2726 part header block, LM2727 parts, LM2728 part size, LM2729 body size)
     * @throws IOException when the body cannot be read
     * @throws IllegalStateException when the reader is closed
     */
    public Part next() throws IOException {
        if (closed) {
            throw new IllegalStateException("the multipart reader is closed");
        }
        if (failure != null) {
            throw failure;
        }
        try {
            return nextPart();
        } catch (MultipartException e) {
            throw failed(e);
        }
    }

    private MultipartException failed(MultipartException e) {
        failure = e;
        return e;
    }

    private Part nextPart() throws IOException {
        if (done) {
            return null;
        }
        if (inContent) {
            // The preamble, or the rest of the current part (counted against its size limit).
            if (current != null) {
                current.skipped();
            }
            while (skipContent() >= 0) {
                // skipped
            }
        }
        started = true;
        current = null;
        if (readDelimiterEnd()) {
            done = true;
            return null;
        }
        if (++parts > limits.maxParts()) {
            throw new MultipartException(413, "LM2727 multipart body has more than its limit of "
                    + limits.maxParts() + " parts");
        }
        Part p = readHeaders();
        current = p;
        inContent = true;
        return p;
    }

    /**
     * Reads every remaining part and stores it (see the class comment), skipping what is left of
     * a part already handed out by {@link #next()}. On any failure the reader is closed, which
     * deletes the temporary files made so far.
     *
     * @return the stored parts, in order (empty when none is left)
     * @throws MultipartException as {@link #next()} does
     * @throws IOException when the body cannot be read or a temporary file cannot be written (LM2731)
     * @throws IllegalStateException when the reader is closed
     */
    public List<Part> readAll() throws IOException {
        List<Part> all = new ArrayList<>();
        boolean ok = false;
        try {
            for (Part p; (p = next()) != null; ) {
                p.store();
                all.add(p);
            }
            ok = true;
        } finally {
            if (!ok) {
                close();
            }
        }
        return all;
    }

    /** {@return the parts begun so far} */
    public int partCount() {
        return parts;
    }

    /** {@return the bytes of body read so far, framing included} */
    public long bytesRead() {
        return bytesRead;
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Ends the reader: parts can no longer be read, and every temporary file it made and that was
     * not {@linkplain Part#saveTo moved away} is deleted (a file that cannot be deleted is logged,
     * LM2732). Does not read or close the body. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        current = null;
        for (Path f : spooled) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "LM2732 could not delete the spooled multipart part {0}: {1}", f, e.toString());
            }
        }
        spooled.clear();
    }

    // ---- what parts call ----

    MultipartLimits limits() {
        return limits;
    }

    /** Whether {@code p}'s content is still being read from the body (it is the current part, not finished). */
    boolean streaming(Part p) {
        return !closed && p == current && inContent;
    }

    /**
     * Up to {@code len} bytes of the current part's content into {@code b}.
     *
     * @return the count, or -1 at its end (its closing delimiter is then consumed)
     */
    int readContent(Part p, byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (len == 0) {
            return 0;
        }
        try {
            return readContent0(p, b, off, len);
        } catch (MultipartException e) {
            throw failed(e);
        }
    }

    private int readContent0(Part p, byte[] b, int off, int len) throws IOException {
        int n = available();
        if (n == 0) {
            endContent();
            return -1;
        }
        n = Math.min(n, len);
        count(p, n);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Bytes of the current content that can be handed out without blocking (those known to be content). */
    int buffered() {
        if (delimiterAt >= 0) {
            return delimiterAt - pos;
        }
        return Math.max(0, clearTo - pos);
    }

    /** A temporary file for a part's content, owned (deleted on close) by this reader. */
    Path newSpoolFile() throws IOException {
        Path dir = limits.spoolDirectory() != null ? limits.spoolDirectory()
                : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            Path f = Files.createTempFile(dir, "loom-mpm-", ".part");
            spooled.add(f);
            return f;
        } catch (IOException e) {
            throw new IOException("LM2731 could not create a temporary file for a multipart part in " + dir + ": " + e, e);
        }
    }

    /** The file is no longer this reader's to delete (moved to where the application wanted it). */
    void disown(Path f) {
        spooled.remove(f);
    }

    /** Takes {@code n} bytes of memory for a stored part if the threshold allows. */
    boolean reserveMemory(long n) {
        if (memoryHeld + n > limits.spoolThreshold()) {
            return false;
        }
        memoryHeld += n;
        return true;
    }

    /** Gives back memory a stored part took and then did not keep (it went to a file). */
    void releaseMemory(long n) {
        memoryHeld -= n;
    }

    /** Writes the rest of the current part's content to {@code out}; {@code IOException}s of {@code out} are LM2731's. */
    long transferContent(Part p, OutputStream out, Path file) throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            return transferContent0(p, out, file);
        } catch (MultipartException e) {
            throw failed(e);
        }
    }

    private long transferContent0(Part p, OutputStream out, Path file) throws IOException {
        long total = 0;
        while (true) {
            int n = available();
            if (n == 0) {
                endContent();
                return total;
            }
            count(p, n);
            try {
                out.write(buf, pos, n);
            } catch (IOException e) {
                throw new IOException("LM2731 could not write a multipart part to " + file + ": " + e, e);
            }
            pos += n;
            total += n;
        }
    }

    // ---- the parser ----

    /** Skips content up to the delimiter; -1 once it is consumed. */
    private int skipContent() throws IOException {
        int n = available();
        if (n == 0) {
            endContent();
            return -1;
        }
        if (current != null) {
            count(current, n);
        }
        pos += n;
        return n;
    }

    private void endContent() {
        pos += delimiter.length;
        delimiterAt = -1;
        inContent = false;
        if (current != null) {
            current.ended();
        }
    }

    private void count(Part p, int n) {
        long size = p.addRead(n);
        if (limits.maxPartSize() > 0 && size > limits.maxPartSize()) {
            throw new MultipartException(413, "LM2728 multipart part '" + printable(p.name(), 80)
                    + "' larger than its limit of " + limits.maxPartSize() + " bytes");
        }
    }

    /**
     * How many content bytes start at {@code pos}: 0 when the delimiter starts there. Reads more
     * of the body when what is buffered cannot tell (a delimiter's prefix at its end).
     *
     * @throws MultipartException 400 (LM2724) when the body ends before the delimiter
     */
    private int available() throws IOException {
        while (true) {
            if (delimiterAt >= 0) {
                return delimiterAt - pos;
            }
            if (clearTo > pos) {
                return clearTo - pos;
            }
            int i = find(pos, lim);
            if (i >= 0 && i + delimiter.length <= lim) {
                delimiterAt = i;
                continue;
            }
            // No delimiter: everything before a possible one's start at the end is content.
            int end = i >= 0 ? i : lim;
            if (end > pos) {
                clearTo = end;
                continue;
            }
            if (eof) {
                throw truncated();
            }
            fill();
        }
    }

    /**
     * The first index in {@code [from, to)} where the delimiter starts, whole or (at the end)
     * cut off by {@code to}; -1 when there is none. The delimiter starts with CR, rare in most
     * content, so the scan looks for that byte ({@link #nextCr}) and compares from there.
     */
    private int find(int from, int to) {
        byte[] d = delimiter;
        byte[] b = buf;
        for (int i = nextCr(b, from, to); i >= 0; i = nextCr(b, i + 1, to)) {
            int n = Math.min(d.length, to - i);
            int k = 1;
            while (k < n && b[i + k] == d[k]) {
                k++;
            }
            if (k == n) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The index of the first CR in {@code b[from, to)}, or -1. Eight bytes per step: a CR byte
     * becomes a zero byte under the XOR, and {@code (x - 0x01…) & ~x & 0x80…} sets the high bit
     * of the lowest zero byte exactly (a borrow can only mark bytes above it, which are not used).
     * The scan was half of an upload's server CPU byte by byte (JFR, toolkit.sh's upload row).
     */
    static int nextCr(byte[] b, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long x = (long) LONGS.get(b, i) ^ CRS;
            long zero = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == CR) {
                return i;
            }
        }
        return -1;
    }

    /** Moves the unread bytes to the buffer's start and reads more; sets {@code eof} at the body's end. */
    private void fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            clearTo -= pos;
            if (delimiterAt >= 0) {
                delimiterAt -= pos;
            }
            pos = 0;
        }
        int want = buf.length - lim;
        if (limits.maxRequestSize() > 0) {
            // One byte past the limit is enough to know it was passed.
            want = (int) Math.min(want, limits.maxRequestSize() - bytesRead + 1);
        }
        int n = in.read(buf, lim, want);
        if (n < 0) {
            eof = true;
            return;
        }
        lim += n;
        bytesRead += n;
        if (limits.maxRequestSize() > 0 && bytesRead > limits.maxRequestSize()) {
            throw new MultipartException(413, "LM2729 multipart body larger than its limit of "
                    + limits.maxRequestSize() + " bytes");
        }
    }

    private int readByte() throws IOException {
        while (pos == lim) {
            if (eof) {
                throw truncated();
            }
            fill();
        }
        return buf[pos++] & 0xff;
    }

    private MultipartException truncated() {
        return new MultipartException(400, "LM2724 multipart body ended before its closing boundary"
                + (started ? " (in part " + parts + ")" : " (no boundary found)"));
    }

    /**
     * After a delimiter: {@code --} (the close delimiter: no more parts) or transport padding and
     * CRLF (a part follows).
     *
     * @return whether it was the close delimiter
     */
    private boolean readDelimiterEnd() throws IOException {
        int c = readByte();
        if (c == '-') {
            if (readByte() == '-') {
                return true;
            }
            throw new MultipartException(400, "LM2723 malformed multipart boundary line after part " + parts);
        }
        int padding = 0;
        while (c == ' ' || c == '\t') {
            if (++padding > limits.maxPartHeaderBytes()) {
                throw new MultipartException(413, "LM2726 multipart boundary padding longer than the part header "
                        + "limit of " + limits.maxPartHeaderBytes() + " bytes");
            }
            c = readByte();
        }
        if (c != CR || readByte() != LF) {
            throw new MultipartException(400, "LM2723 malformed multipart boundary line after part " + parts
                    + ": no CRLF after the boundary");
        }
        return false;
    }

    /** Reads a part's header block (up to its empty line) into a part. */
    private Part readHeaders() throws IOException {
        List<String> names = new ArrayList<>(4);
        List<String> values = new ArrayList<>(4);
        int total = 0;
        int max = limits.maxPartHeaderBytes();
        while (true) {
            int len = 0;
            int c;
            do {
                c = readByte();
                if (++total > max) {
                    throw new MultipartException(413, "LM2726 multipart part " + parts
                            + " has a header block larger than its limit of " + max + " bytes");
                }
                if (len == line.length) {
                    line = Arrays.copyOf(line, Math.min(max, line.length * 2));
                }
                line[len++] = (byte) c;
            } while (c != LF);
            len--; // the LF
            if (len > 0 && line[len - 1] == CR) {
                len--;
            }
            if (len == 0) {
                break;
            }
            // RFC 7578 §5.1.3: field values are UTF-8 in practice (a file name as typed).
            String text = new String(line, 0, len, StandardCharsets.UTF_8);
            if (text.charAt(0) == ' ' || text.charAt(0) == '\t') {
                if (values.isEmpty()) {
                    throw badHeader("a continuation line before any field");
                }
                // obs-fold (RFC 9112 §5.2): one space for the line break (none for a blank line,
                // so a value never ends in white space, as an unfolded one does not).
                String more = text.strip();
                if (!more.isEmpty()) {
                    String before = values.get(values.size() - 1);
                    values.set(values.size() - 1, before.isEmpty() ? more : before + " " + more);
                }
                continue;
            }
            int colon = text.indexOf(':');
            if (colon <= 0 || !isToken(text, colon)) {
                throw badHeader("a line that is not a header field");
            }
            names.add(text.substring(0, colon));
            values.add(text.substring(colon + 1).strip());
        }
        String disposition = null;
        for (int i = 0; i < names.size() && disposition == null; i++) {
            if (names.get(i).equalsIgnoreCase("Content-Disposition")) {
                disposition = values.get(i);
            }
        }
        if (disposition == null || !HeaderParams.type(disposition).equals("form-data")) {
            throw badHeader("no Content-Disposition: form-data");
        }
        String name = HeaderParams.param(disposition, "name");
        if (name == null) {
            throw badHeader("Content-Disposition without a name");
        }
        // RFC 7578 §4.2: filename (filename* is not used in multipart/form-data).
        String filename = HeaderParams.param(disposition, "filename");
        return new Part(this, name, filename, names.toArray(String[]::new), values.toArray(String[]::new));
    }

    private MultipartException badHeader(String what) {
        return new MultipartException(400, "LM2725 malformed headers of multipart part " + parts + ": " + what);
    }

    private static boolean isToken(String s, int end) {
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            boolean ok = c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A client's text as it may go into a log line: no control characters (no forged lines), bounded. */
    static String printable(String s, int max) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 3);
        for (int i = 0; i < s.length() && i < max; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return s.length() > max ? b.append("...").toString() : b.toString();
    }
}
