package org.loommpm.websocket.deflate;

/** Test access to the package-private pool constructor. */
public final class ZlibPoolAccess {
    private ZlibPoolAccess() {
    }

    /** A fresh pool of four. */
    public static ZlibPool fresh() {
        return new ZlibPool(4);
    }
}
