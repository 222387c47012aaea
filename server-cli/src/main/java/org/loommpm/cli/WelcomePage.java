package org.loommpm.cli;

import java.io.IOException;
import java.io.InputStream;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/** The built-in welcome page of the embedded default, read from the jar on first use. */
final class WelcomePage implements Handler {
    private volatile byte[] page;

    @Override
    public void handle(Request request, Response response) throws Exception {
        byte[] p = page;
        if (p == null) {
            p = load(); // racing first requests read the same resource; either copy is fine
            page = p;
        }
        response.header("Content-Type", "text/html; charset=UTF-8");
        response.send(p);
    }

    private static byte[] load() throws IOException {
        try (InputStream in = WelcomePage.class.getResourceAsStream("welcome.html")) {
            if (in == null) {
                throw new IOException("welcome.html missing from the jar");
            }
            return in.readAllBytes();
        }
    }
}
