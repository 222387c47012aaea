package org.loommpm.websocket.deflate;

/** Test access to the package-private pool constructor and counts. */
public final class ZlibPoolAccess {
    private ZlibPoolAccess() {
    }

    /** A fresh pool of four. */
    public static ZlibPool fresh() {
        return new ZlibPool(4);
    }

    /** Idle decompressors in the process-wide pool the server's sockets borrow from. */
    public static int sharedIdleInflaters() {
        return ZlibPool.SHARED.idleInflaters();
    }
}
