package org.loommpm.tls;

import java.io.ByteArrayOutputStream;

/**
 * The little DER needed to turn a PKCS#1 RSA key or a SEC1 EC key into PKCS#8 (what the JDK's
 * key factories read): building a tag-length-value and walking a SEQUENCE's elements. Not a
 * general ASN.1 parser: lengths up to 2^24, definite form only.
 */
final class Der {
    static final int SEQUENCE = 0x30;
    static final int INTEGER = 0x02;
    static final int OCTET_STRING = 0x04;
    static final int OID = 0x06;
    static final int NULL = 0x05;
    /** {@code [0]} constructed: SEC1's curve parameters. */
    static final int CONTEXT_0 = 0xA0;

    /** rsaEncryption, 1.2.840.113549.1.1.1. */
    static final byte[] OID_RSA = {0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01};
    /** id-ecPublicKey, 1.2.840.10045.2.1. */
    static final byte[] OID_EC = {0x06, 0x07, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01};

    private Der() {
    }

    /** One element: its tag, and where its content lies in the input. */
    record Element(int tag, int start, int end) {
    }

    /** Encodes a tag-length-value. */
    static byte[] tlv(int tag, byte[]... parts) {
        int len = 0;
        for (byte[] p : parts) {
            len += p.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len + 6);
        out.write(tag);
        if (len < 0x80) {
            out.write(len);
        } else if (len < 0x100) {
            out.write(0x81);
            out.write(len);
        } else if (len < 0x10000) {
            out.write(0x82);
            out.write(len >> 8);
            out.write(len);
        } else {
            out.write(0x83);
            out.write(len >> 16);
            out.write(len >> 8);
            out.write(len);
        }
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * Reads the element starting at {@code at}.
     *
     * @throws IllegalArgumentException if it is truncated or uses a form we do not read
     */
    static Element read(byte[] der, int at, int limit) {
        if (at + 2 > limit) {
            throw new IllegalArgumentException("truncated DER at offset " + at);
        }
        int tag = der[at] & 0xFF;
        int len = der[at + 1] & 0xFF;
        int pos = at + 2;
        if (len >= 0x80) {
            int n = len & 0x7F;
            if (n == 0 || n > 3 || pos + n > limit) {
                throw new IllegalArgumentException("unsupported DER length at offset " + at);
            }
            len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (der[pos++] & 0xFF);
            }
        }
        if (pos + len > limit) {
            throw new IllegalArgumentException("truncated DER at offset " + at);
        }
        return new Element(tag, pos, pos + len);
    }

    /** The whole encoding (tag and length included) of an element read from {@code der}. */
    static byte[] encoding(byte[] der, int elementStart, Element e) {
        return java.util.Arrays.copyOfRange(der, elementStart, e.end());
    }
}
