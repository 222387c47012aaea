package org.loommpm.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;
import org.loommpm.cors.Cors;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.multipart.Part;

/**
 * The loom app's toolkit endpoints, written with the embedded API as an application would:
 * <ul>
 *   <li>{@code GET /json}: TechEmpower's message through {@code Response.json} (the
 *       {@code loom-mpm-jackson} codec found by ServiceLoader), a new object per request;
 *   <li>{@code POST /json}: the posted JSON object with {@code "echo": true} added; CORS allows
 *       {@code http://example.test} on it, preflight answered by the {@link Cors} filter;
 *   <li>{@code POST /form}: the decoded urlencoded form as JSON (name to list of values);
 *   <li>{@code POST /upload}: per part its name, filename, size and SHA-256 as JSON, with
 *       {@link Toolkit}'s limits. By default each part is hashed as it streams in
 *       ({@code MultipartReader.next()}: what loom's API is built for, nothing spooled);
 *       {@code LOOM_UPLOAD=stored} (toolkit.sh's pseudo-server {@code loom-stored}) stores every
 *       part first ({@code readAll()}: in memory up to the 16 KiB threshold, then spooled to
 *       {@code BENCH_UPLOAD_DIR}) and hashes them afterwards, as the other peers' APIs make them do.
 * </ul>
 */
final class LoomToolkit {
    private static final boolean STORED = "stored".equalsIgnoreCase(System.getenv("LOOM_UPLOAD"));

    private LoomToolkit() {
    }

    static Router routes(Router router) {
        MultipartLimits limits = MultipartLimits.DEFAULTS
                .withMaxRequestSize(Toolkit.MAX_REQUEST_BYTES)
                .withMaxPartSize(Toolkit.MAX_PART_BYTES)
                .withMaxParts(Toolkit.MAX_PARTS)
                .withMaxPartHeaderBytes(Toolkit.MAX_PART_HEADER_BYTES)
                .withSpoolThreshold(Toolkit.MEMORY_THRESHOLD_BYTES)
                .withSpoolDirectory(Toolkit.uploadDir());
        Cors cors = Cors.builder().allowOrigins("http://example.test").allowMethods("GET", "POST")
                .allowHeaders("Content-Type").build();
        Handler echo = (req, res) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> body = new LinkedHashMap<>(req.json(Map.class));
            body.put("echo", true);
            res.json(body);
        };
        return router
                .get(Toolkit.JSON_PATH, cors.around((req, res) -> res.json(new Toolkit.Message(Toolkit.HELLO))))
                .post(Toolkit.JSON_PATH, cors.around(echo))
                .options(Toolkit.JSON_PATH, cors.around((req, res) -> res.status(204).send(new byte[0])))
                .post("/form", (req, res) -> res.json(req.form().asMap()))
                .post(Toolkit.UPLOAD_PATH, (req, res) -> {
                    List<Toolkit.PartDigest> digests = new ArrayList<>();
                    MultipartReader parts = req.multipart(limits); // closed by the server when the handler returns
                    if (STORED) {
                        for (Part p : parts.readAll()) {
                            digests.add(Toolkit.digest(p.name(), p.filename(), p.content()));
                        }
                    } else {
                        for (Part p = parts.next(); p != null; p = parts.next()) {
                            digests.add(Toolkit.digest(p.name(), p.filename(), p.content()));
                        }
                    }
                    res.json(digests);
                });
    }
}
