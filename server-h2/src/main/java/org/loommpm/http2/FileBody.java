package org.loommpm.http2;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A response body that is a region of a file ({@code Response.sendFile}), read by the frame loop
 * as the client's flow-control windows open, after the handler has returned. A stream waiting
 * for window therefore holds no worker slot, no thread, no file descriptor and no buffer: the
 * file is opened for each chunk read and closed at once, and a chunk is never larger than the
 * window open when it is read (nor {@link #CHUNK}), so it is framed in the same pass. Frame loop
 * only, once the task has queued it.
 */
final class FileBody {
    /** The most read at once. */
    static final int CHUNK = 64 * 1024;

    private final Path file;
    private long position;
    private long remaining;
    private byte[] chunk;
    private int chunkOff;
    private int chunkLen;

    FileBody(Path file, long position, long count) {
        this.file = file;
        this.position = position;
        this.remaining = count;
    }

    /** Bytes not yet framed (read or not). */
    long remaining() {
        return remaining + chunkLen;
    }

    /**
     * Makes up to {@code max} bytes available in {@link #array()} at {@link #offset()}, reading
     * the next chunk when the current one is used up.
     *
     * @return how many (at least 1 while anything remains)
     * @throws IOException if the file cannot be read or became shorter than the region
     */
    int take(int max) throws IOException {
        if (chunkLen == 0) {
            int n = (int) Math.min(Math.min(remaining, CHUNK), Math.max(max, 1));
            // A fresh array each time: the batch still refers to the last one until it is written.
            byte[] a = new byte[n];
            ByteBuffer b = ByteBuffer.wrap(a);
            try (FileChannel ch = FileChannel.open(file)) {
                while (b.hasRemaining()) {
                    if (ch.read(b, position + b.position()) < 0) {
                        throw new EOFException(file + " became shorter while being sent");
                    }
                }
            }
            chunk = a;
            chunkOff = 0;
            chunkLen = n;
            position += n;
            remaining -= n;
        }
        return Math.min(max, chunkLen);
    }

    byte[] array() {
        return chunk;
    }

    int offset() {
        return chunkOff;
    }

    /** {@code n} bytes of the current chunk were framed. */
    void advance(int n) {
        chunkOff += n;
        chunkLen -= n;
        if (chunkLen == 0) {
            chunk = null;
        }
    }

    @Override
    public String toString() {
        return file + " (" + remaining() + " bytes left)";
    }
}
