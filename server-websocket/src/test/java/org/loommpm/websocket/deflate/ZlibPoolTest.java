package org.loommpm.websocket.deflate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** The pool's bound holds under concurrent borrowers, and what it lends works after a reset. */
class ZlibPoolTest {
    @Test
    void eightThreadsBorrowAndReturnWithinTheBound() throws Exception {
        ZlibPool pool = new ZlibPool(4);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        byte[] msg = "a message that compresses, compresses, compresses".getBytes(StandardCharsets.UTF_8);
        for (int t = 0; t < threads; t++) {
            ts.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    byte[] out = new byte[256];
                    byte[] back = new byte[256];
                    for (int i = 0; i < 2_000; i++) {
                        Deflater d = pool.deflater();
                        Inflater f = pool.inflater();
                        d.setInput(msg);
                        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
                        f.setInput(out, 0, n);
                        int m = f.inflate(back);
                        if (m != msg.length) {
                            throw new AssertionError("round trip lost bytes: " + m);
                        }
                        pool.release(d);
                        pool.release(f);
                        if (pool.idleDeflaters() > 4 || pool.idleInflaters() > 4) {
                            throw new AssertionError("pool above its bound");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertTrue(pool.idleDeflaters() <= 4 && pool.idleDeflaters() >= 1);
        assertEquals(pool.idleInflaters(), pool.idleDeflaters(), "as many of each came back");
    }
}
