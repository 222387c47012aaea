package org.loommpm.json;

import java.util.ServiceLoader;

/**
 * Finds the {@link JsonCodec}: the one set with {@link #use(JsonCodec)}, else the first that
 * {@link ServiceLoader} finds on the class path or module path ({@code loom-mpm-jackson}
 * provides one). The lookup is done once, on first need, and its outcome kept.
 *
 * <p>Thread-safety: any thread may call either method; the codec is published through a
 * volatile field.
 */
public final class JsonCodecs {
    /** The codec in use, or {@code null} until found or set. */
    private static volatile JsonCodec codec;
    /** Set once a lookup found nothing: a later call fails at once rather than scan again. */
    private static volatile boolean absent;

    private JsonCodecs() {
    }

    /**
     * {@return the JSON codec to use}
     *
     * @throws IllegalStateException when none was set and none is on the class path or module
     *     path: add the {@code org.loommpm:loom-mpm-jackson} dependency (or provide a
     *     {@code org.loommpm.json.JsonCodec} service of your own)
     */
    public static JsonCodec find() {
        JsonCodec c = codec;
        if (c != null) {
            return c;
        }
        if (!absent) {
            synchronized (JsonCodecs.class) {
                c = codec;
                if (c == null && !absent) {
                    c = lookUp();
                    if (c == null) {
                        absent = true;
                    } else {
                        codec = c;
                    }
                }
            }
            if (c != null) {
                return c;
            }
        }
        throw new IllegalStateException("no JSON codec: add the org.loommpm:loom-mpm-jackson dependency (module "
                + "org.loommpm.jackson), or provide an org.loommpm.json.JsonCodec service, or call JsonCodecs.use");
    }

    /**
     * The thread's context class loader first (an application loaded by a class loader of its
     * own, as the jar's {@code LoadApplication} does, may carry the codec in its jar), then this
     * module's loader (the class path, the module path's layer).
     */
    private static JsonCodec lookUp() {
        return ServiceLoader.load(JsonCodec.class).findFirst()
                .or(() -> ServiceLoader.load(JsonCodec.class, JsonCodecs.class.getClassLoader()).findFirst())
                .orElse(null);
    }

    /**
     * Sets the codec every {@code Request.json} and {@code Response.json} of this JVM uses, in
     * place of the one {@link ServiceLoader} finds: e.g. {@code new JacksonCodec(myMapper)} with
     * an application's own configured {@code ObjectMapper}.
     *
     * @param codec the codec, or {@code null} to go back to the {@link ServiceLoader} lookup
     */
    public static void use(JsonCodec codec) {
        synchronized (JsonCodecs.class) {
            JsonCodecs.codec = codec;
            absent = false;
        }
    }
}
