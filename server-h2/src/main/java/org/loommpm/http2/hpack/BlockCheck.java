package org.loommpm.http2.hpack;

import java.lang.reflect.Field;

/**
 * Checks an HPACK header block for what {@code com.twitter:hpack}'s streaming decoder lets pass:
 * a representation cut off at the end of the block, a dynamic table size update after the first
 * field or more than two of them (RFC 7541 §4.2), and Huffman string padding longer than 7 bits
 * (§5.2). Each is a COMPRESSION_ERROR. (An update above the announced table size, §6.3, the
 * library refuses itself.) A walk over the representations' lengths; the Huffman strings are
 * walked a byte at a time through a state table built from the library's own code table.
 * Stateless; any thread.
 */
final class BlockCheck {
    /** The Huffman code tree: {@code TREE[node*2 + bit]} is a child node (> 0) or {@code -(symbol+1)}. */
    private static final int[] TREE = buildTree();
    private static final int EOS = 256;
    /** The tree's inner nodes (the root is 0); {@link #DEAD}, one past them, is the state after EOS. */
    private static final int NODES = nodes();
    private static final int DEAD = NODES;
    private static final char[] BYTES = buildBytes();
    private static final byte[] DEPTH = new byte[NODES + 1];
    private static final boolean[] ONES = new boolean[NODES + 1];

    static {
        depths(0, 0, true);
        DEPTH[DEAD] = 127;
    }

    private static int nodes() {
        int nodes = 0;
        for (int t : TREE) {
            nodes = Math.max(nodes, t + 1);
        }
        return nodes;
    }

    private final byte[] b;
    private final int len;
    private int p;

    private BlockCheck(byte[] b, int len) {
        this.b = b;
        this.len = len;
    }

    /** The first violation in {@code block[0, length)}, or {@code null}. */
    static String violation(byte[] block, int length) {
        return new BlockCheck(block, length).scan();
    }

    private String scan() {
        boolean fieldSeen = false;
        int sizeUpdates = 0;
        while (p < len) {
            int first = b[p] & 0xff;
            String why;
            if ((first & 0x80) != 0) {
                why = integer(7) < 0 ? "truncated index" : null;
                fieldSeen = true;
            } else if ((first & 0x40) != 0) {
                why = literal(6);
                fieldSeen = true;
            } else if ((first & 0x20) != 0) {
                if (fieldSeen) {
                    return "dynamic table size update after a header field";
                }
                // The smallest size since the last block, then the final one: two is all an
                // encoder needs; the library would apply thousands, each resizing the table.
                if (++sizeUpdates > 2) {
                    return "more than two dynamic table size updates";
                }
                why = integer(5) < 0 ? "truncated table size update" : null;
            } else {
                why = literal(4);
                fieldSeen = true;
            }
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private String literal(int prefix) {
        long index = integer(prefix);
        if (index < 0) {
            return "truncated name index";
        }
        if (index == 0) {
            String why = string();
            if (why != null) {
                return why;
            }
        }
        return string();
    }

    private String string() {
        if (p >= len) {
            return "truncated string literal";
        }
        boolean huffman = (b[p] & 0x80) != 0;
        long n = integer(7);
        if (n < 0 || n > len - p) {
            return "truncated string literal";
        }
        int start = p;
        p += (int) n;
        return huffman ? huffman(start, p) : null;
    }

    /** Decodes a prefixed integer at {@link #p}; -1 when the block ends inside it or it overflows. */
    private long integer(int prefix) {
        int mask = (1 << prefix) - 1;
        long v = b[p++] & mask;
        if (v < mask) {
            return v;
        }
        int shift = 0;
        while (p < len) {
            int x = b[p++] & 0xff;
            v += (long) (x & 0x7f) << shift;
            if (v > Integer.MAX_VALUE) {
                return -1;
            }
            if ((x & 0x80) == 0) {
                return v;
            }
            shift += 7;
        }
        return -1;
    }

    /**
     * RFC 7541 §5.2: no EOS symbol; at most 7 bits of padding, all ones. One table step per byte
     * ({@link #BYTES}); where the string ends, the node reached says how many bits follow the
     * last whole symbol (its depth) and whether they are all ones.
     */
    private String huffman(int from, int to) {
        int node = 0;
        byte[] a = b;
        for (int i = from; i < to; i++) {
            node = BYTES[node << 8 | a[i] & 0xff];
        }
        if (node == DEAD) {
            return "EOS symbol in a Huffman string";
        }
        if (DEPTH[node] > 7) {
            return "Huffman padding longer than 7 bits";
        }
        return ONES[node] ? null : "Huffman padding not all ones";
    }

    /**
     * For each tree node and each byte, the node those eight bits lead to (a completed symbol
     * restarts at the root), or {@link #DEAD} once they complete the EOS symbol (and from
     * {@code DEAD} on): one dependent load per byte and no branch in the loop, where the walk by
     * nibbles took two and a branch each, and a walk by bits eight (issue #50 item 7: a 120 KiB
     * Huffman string's check was the time of an oversized block answered 431).
     */
    private static char[] buildBytes() {
        char[] table = new char[(NODES + 1) * 256];
        for (int node = 0; node <= NODES; node++) {
            for (int x = 0; x < 256; x++) {
                int n = node;
                for (int bit = 7; bit >= 0 && n != DEAD; bit--) {
                    int next = TREE[n * 2 + (x >>> bit & 1)];
                    n = next > 0 ? next : -next - 1 == EOS ? DEAD : 0;
                }
                table[node << 8 | x] = (char) n;
            }
        }
        return table;
    }

    /** Each node's depth (bits since the root) and whether the path to it is all ones. */
    private static void depths(int node, int depth, boolean ones) {
        DEPTH[node] = (byte) Math.min(depth, 127);
        ONES[node] = ones;
        for (int one = 0; one < 2; one++) {
            int child = TREE[node * 2 + one];
            if (child > 0) {
                depths(child, depth + 1, ones && one == 1);
            }
        }
    }

    private static int[] buildTree() {
        int[] codes;
        byte[] lengths;
        try {
            // The library's RFC 7541 Appendix B table (package-private there; read once).
            Class<?> util = Class.forName("com.twitter.hpack.HpackUtil");
            Field c = util.getDeclaredField("HUFFMAN_CODES");
            Field l = util.getDeclaredField("HUFFMAN_CODE_LENGTHS");
            c.setAccessible(true);
            l.setAccessible(true);
            codes = (int[]) c.get(null);
            lengths = (byte[]) l.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError(e);
        }
        int[] tree = new int[2 * 2 * 257];
        int nodes = 1;
        for (int sym = 0; sym < codes.length; sym++) {
            int node = 0;
            for (int bit = lengths[sym] - 1; bit >= 0; bit--) {
                int one = codes[sym] >>> bit & 1;
                int slot = node * 2 + one;
                if (bit == 0) {
                    tree[slot] = -(sym + 1);
                } else {
                    if (tree[slot] == 0) {
                        tree[slot] = nodes++;
                    }
                    node = tree[slot];
                }
            }
        }
        return tree;
    }
}
