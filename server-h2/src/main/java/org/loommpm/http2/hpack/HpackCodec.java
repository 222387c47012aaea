package org.loommpm.http2.hpack;

import com.twitter.hpack.Decoder;
import com.twitter.hpack.Encoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Headers;

/**
 * A connection's two HPACK contexts (RFC 7541) through {@code com.twitter:hpack}: the decoder
 * for request header blocks, bounded by the header-list size and the table size the server
 * announced (an HPACK bomb decodes into at most that many bytes: beyond it fields are dropped and
 * {@link FieldBlock#truncated()} is set), and the encoder for response header blocks. Both are
 * stateful and must see blocks in wire order, so only the connection's frame loop calls them.
 */
public final class HpackCodec {
    private final Decoder decoder;
    private final Encoder encoder = new Encoder(4096);
    private final Encoded encoded = new Encoded();
    private final FieldStrings known = new FieldStrings();
    /** Lower-case name bytes by name, for the response fields a handler repeats; bounded. */
    private final java.util.HashMap<String, byte[]> names = new java.util.HashMap<>();
    /** A table size the client announced that the encoder has not signalled yet, or -1. */
    private int pendingEncoderTableSize = -1;
    /** The smallest table size announced since the last block, or -1 (RFC 7541 §4.2). */
    private int smallestEncoderTableSize = -1;

    /**
     * @param maxHeaderListSize bytes of names and values one block may decode into
     * @param headerTableSize the decoder's dynamic table size (as announced)
     */
    public HpackCodec(int maxHeaderListSize, int headerTableSize) {
        this.decoder = new Decoder(maxHeaderListSize, headerTableSize);
    }

    /**
     * Decodes a whole header block.
     *
     * @throws IOException when the block is not valid HPACK (a COMPRESSION_ERROR)
     */
    public FieldBlock decode(byte[] block, int length, boolean trailers) throws IOException {
        String violation = BlockCheck.violation(block, length);
        if (violation != null) {
            throw new IOException(violation);
        }
        FieldBlock fields = new FieldBlock(trailers, known);
        try {
            decoder.decode(new ByteArrayInputStream(block, 0, length), (name, value, sensitive) -> fields.add(name, value));
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IOException("invalid HPACK: " + e, e);
        }
        fields.finish(decoder.endHeaderBlock());
        return fields;
    }

    /**
     * Records the client's SETTINGS_HEADER_TABLE_SIZE; signalled at the start of the next block,
     * preceded by the smallest size announced meanwhile if that was lower: the client's decoder
     * evicted down to it, so the encoder must too (RFC 7541 §4.2).
     */
    public void peerTableSize(int size) {
        pendingEncoderTableSize = Math.min(size, 4096);
        if (smallestEncoderTableSize < 0 || pendingEncoderTableSize < smallestEncoderTableSize) {
            smallestEncoderTableSize = pendingEncoderTableSize;
        }
    }

    /**
     * Encodes a response header block: {@code :status}, then the fields with lower-case names;
     * connection-specific fields (not allowed in HTTP/2) are left out. A trailer block
     * ({@code status} -1) has the fields alone.
     *
     * @return the encoded block (valid until the next call)
     */
    public Encoded encode(int status, Headers fields) throws IOException {
        encoded.reset();
        if (pendingEncoderTableSize >= 0) {
            // Each call signals a size only if it differs from the encoder's current one.
            encoder.setMaxHeaderTableSize(encoded, smallestEncoderTableSize);
            encoder.setMaxHeaderTableSize(encoded, pendingEncoderTableSize);
            pendingEncoderTableSize = -1;
            smallestEncoderTableSize = -1;
        }
        if (status >= 0) { // trailers (status -1) carry no pseudo-header field (RFC 9113 §8.1)
            encoder.encodeHeader(encoded, STATUS, statusBytes(status), false);
        }
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (connectionSpecific(name)) {
                continue;
            }
            encoder.encodeHeader(encoded, nameBytes(name), fields.value(i).getBytes(StandardCharsets.ISO_8859_1), false);
        }
        return encoded;
    }

    /** An encoded block; its array is read in place (and copied into the frame batch at once). */
    public static final class Encoded extends ByteArrayOutputStream {
        Encoded() {
            super(256);
        }

        /** The backing array; bytes {@code [0, size())} are the block. */
        public byte[] array() {
            return buf;
        }
    }

    private static final byte[] STATUS = ":status".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] COMMON = new byte[600][];

    private static byte[] statusBytes(int status) {
        if (status >= 0 && status < COMMON.length) {
            byte[] b = COMMON[status];
            if (b == null) {
                b = Integer.toString(status).getBytes(StandardCharsets.US_ASCII);
                COMMON[status] = b;
            }
            return b;
        }
        return Integer.toString(status).getBytes(StandardCharsets.US_ASCII);
    }

    static boolean connectionSpecific(String name) {
        return Headers.equalsIgnoreCase(name, "connection") || Headers.equalsIgnoreCase(name, "keep-alive")
                || Headers.equalsIgnoreCase(name, "proxy-connection")
                || Headers.equalsIgnoreCase(name, "transfer-encoding") || Headers.equalsIgnoreCase(name, "upgrade");
    }

    private byte[] nameBytes(String name) {
        byte[] b = names.get(name);
        if (b == null) {
            if (names.size() >= 64) {
                names.clear();
            }
            b = lower(name);
            names.put(name, b);
        }
        return b;
    }

    private static byte[] lower(String name) {
        byte[] b = new byte[name.length()];
        for (int i = 0; i < b.length; i++) {
            char ch = name.charAt(i);
            b[i] = (byte) (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        }
        return b;
    }
}
