package org.loommpm.compress;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.BrotliOutputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;

/**
 * Brotli through brotli4j (Maven Central, native builds for linux x86_64 and aarch64 among
 * others). The library is optional: an application that wants {@code br} adds
 * {@code com.aayushatharva.brotli4j:brotli4j} and its native artifact; the jar ships both Linux
 * ones. There is no pure-JVM brotli <em>encoder</em> on Maven Central, so when the library or
 * its native part cannot load, {@code br} is simply not offered: clients get gzip (or identity),
 * and LM2220 says why, once. Stateless; the check runs once, on first use, any thread.
 */
final class Brotli {
    private static final System.Logger LOG = System.getLogger("org.loommpm.compress");

    private Brotli() {
    }

    /** Whether brotli can be used in this process (loads the native library on first call). */
    static boolean available() {
        return Holder.AVAILABLE;
    }

    /** Initialization-on-demand: the first caller pays for the native load, once. */
    private static final class Holder {
        static final boolean AVAILABLE = load();

        private static boolean load() {
            try {
                Brotli4jLoader.ensureAvailability();
                return true;
            } catch (Throwable t) { // NoClassDefFoundError (no library), UnsatisfiedLinkError (no native part)
                LOG.log(Level.WARNING, "LM2220 brotli is not available ({0}): responses are compressed with "
                        + "gzip instead", t.toString());
                return false;
            }
        }
    }

    static OutputStream open(OutputStream out, int quality) throws IOException {
        return new BrotliOutputStream(out, new Encoder.Parameters().setQuality(quality));
    }
}
