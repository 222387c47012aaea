package org.loommpm.jackson.modulepath;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.loommpm.json.JsonCodec;
import org.loommpm.json.JsonCodecs;

/** {@code ModulePathTest}'s application, on the class path: prints what it found and a round trip. */
public final class ModuleApp {
    /** What it reads and writes. */
    public record Point(int x, int y) {
    }

    private ModuleApp() {
    }

    public static void main(String[] args) throws Exception {
        JsonCodec codec = JsonCodecs.find();
        System.out.println("codec module: " + codec.getClass().getModule().getName());
        System.out.println("core module: " + JsonCodec.class.getModule().getName());
        Point p = codec.read(new ByteArrayInputStream("{\"x\":1,\"y\":2}".getBytes(StandardCharsets.UTF_8)),
                Point.class);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.write(p, out);
        System.out.println("round trip: " + out.toString(StandardCharsets.UTF_8));
    }
}
