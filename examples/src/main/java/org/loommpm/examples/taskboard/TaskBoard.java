package org.loommpm.examples.taskboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.loommpm.api.EventStream;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.api.Problem;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.Router;
import org.loommpm.cookie.SetCookie;
import org.loommpm.form.FormData;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.multipart.Part;
import org.loommpm.server.LoomServer;
import org.loommpm.staticfiles.StaticFiles;

/**
 * The example application: a small task board. A login form sets a signed session cookie; a JSON
 * API lists, creates, completes and deletes tasks and takes file attachments as
 * {@code multipart/form-data} uploads; every change is pushed to open pages as a Server-Sent
 * Event; a single static page ({@code webapp/}) is the front end.
 *
 * <pre>
 * POST   /login                        form: user, password  → 303 to / with the session cookie
 * POST   /logout                                             → 303 to /login.html, cookie cleared
 * GET    /api/me                                             → {"user": …}
 * GET    /api/tasks                                          → [task…]
 * POST   /api/tasks                    {"title": …}          → 201 task
 * PATCH  /api/tasks/{id}               {"done": true}        → task
 * DELETE /api/tasks/{id}                                     → 204
 * POST   /api/tasks/{id}/attachments   multipart, file parts → task
 * GET    /api/tasks/{id}/attachments/{name}                  → the file
 * GET    /api/events                   text/event-stream: "created 3", "updated 3", "deleted 3"
 * GET    /*                            the front end's files
 * </pre>
 * Every {@code /api} route answers 401 (a problem document) without a valid session.
 */
public final class TaskBoard {
    /** The session cookie's name. */
    static final String SESSION = "session";
    private static final String USER = "taskboard.user";
    /** At most 64 MiB a file and 16 files an upload: past either the reader answers 413 itself. */
    private static final MultipartLimits ATTACHMENTS = MultipartLimits.DEFAULTS
            .withMaxPartSize(64L * 1024 * 1024).withMaxParts(16);

    private final Board board = new Board();
    private final Users users;
    private final Sessions sessions;
    private final Path attachments;

    private TaskBoard(Map<String, String> passwords, Path attachments, Clock clock) {
        this.users = new Users(passwords);
        this.sessions = new Sessions(clock, Duration.ofHours(8));
        this.attachments = attachments;
    }

    /**
     * The application's routes.
     *
     * @param passwords who may log in: user name to password
     * @param webRoot the front end's files
     * @param attachments where uploaded files are kept (created if missing)
     * @return the handler to serve
     * @throws IOException if the attachments directory cannot be created
     */
    public static Router routes(Map<String, String> passwords, Path webRoot, Path attachments) throws IOException {
        TaskBoard app = new TaskBoard(passwords, Files.createDirectories(attachments), Clock.systemUTC());
        return new Router()
                .filter(app::authenticate)
                .post("/login", app::login)
                .post("/logout", app::logout)
                .get("/api/me", (req, res) -> res.json(Map.of("user", user(req))))
                .get("/api/tasks", (req, res) -> res.json(app.board.all()))
                .post("/api/tasks", app::create)
                .patch("/api/tasks/{id}", app::update)
                .delete("/api/tasks/{id}", app::delete)
                .post("/api/tasks/{id}/attachments", app::upload)
                .get("/api/tasks/{id}/attachments/{name}", app::download)
                .get("/api/events", app::events)
                .get("/{file...}", StaticFiles.from(webRoot));
    }

    /**
     * Runs the board on {@code http://127.0.0.1:PORT/} (user {@code ada}, password
     * {@code lovelace}).
     *
     * @param args the port (default 8080), then the front end's directory (default
     *     {@code examples/src/main/webapp}, as run from the repository's root)
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        Path web = Path.of(args.length > 1 ? args[1] : "examples/src/main/webapp");
        Path data = Files.createTempDirectory("taskboard");
        LoomServer server = LoomServer.builder().listen("127.0.0.1", port)
                .handler(routes(Map.of("ada", "lovelace"), web, data)).start();
        System.out.println("task board on http://127.0.0.1:" + server.port() + "/ (ada / lovelace)");
    }

    /**
     * Lets {@code /api} through only with a valid session, whose user the handlers then find in
     * the request's attributes; sends a page request without one to the login page.
     */
    private void authenticate(Request req, Response res, Handler next) throws Exception {
        String user = sessions.user(req.cookie(SESSION));
        if (user != null) {
            req.attributes().put(USER, user);
        } else if (req.path().startsWith("/api/")) {
            throw problem(401, "Log in first", "This resource needs a session: POST /login.");
        } else if (req.path().equals("/") || req.path().equals("/index.html")) {
            res.status(303).header("Location", "/login.html").send(new byte[0]);
            return;
        }
        next.handle(req, res);
    }

    private static String user(Request req) {
        return (String) req.attributes().get(USER);
    }

    private void login(Request req, Response res) throws IOException {
        FormData form = req.form();
        String user = form.first("user");
        if (!users.check(user, form.first("password"))) {
            res.status(303).header("Location", "/login.html?failed").send(new byte[0]);
            return;
        }
        res.cookie(session(sessions.issue(user)).maxAge(sessions.lifetime()).build());
        res.status(303).header("Location", "/").send(new byte[0]);
    }

    private void logout(Request req, Response res) throws IOException {
        res.cookie(session("").maxAge(Duration.ZERO).build());
        res.status(303).header("Location", "/login.html").send(new byte[0]);
    }

    /** The session cookie: script cannot read it, and other sites' requests do not carry it. */
    private static SetCookie.Builder session(String value) {
        return SetCookie.builder(SESSION, value).path("/").httpOnly(true).sameSite(SetCookie.SameSite.STRICT);
    }

    private void create(Request req, Response res) throws IOException {
        NewTask body = req.json(NewTask.class);
        if (body.title() == null || body.title().isBlank() || body.title().length() > 200) {
            throw problem(400, "Invalid task", "A task needs a title of 1 to 200 characters.");
        }
        res.status(201).json(board.add(body.title().strip(), user(req)));
    }

    private void update(Request req, Response res) throws IOException {
        NewTask body = req.json(NewTask.class);
        res.json(found(board.update(req.pathParam("id", int.class), body.done())));
    }

    private void delete(Request req, Response res) throws IOException {
        if (!board.remove(req.pathParam("id", int.class))) {
            throw problem(404, "No such task", null);
        }
        res.status(204).send(new byte[0]);
    }

    /** Each file part is streamed to disk while its digest is computed: the upload is never held in memory. */
    private void upload(Request req, Response res) throws IOException {
        int id = req.pathParam("id", int.class);
        found(board.get(id));
        Path dir = Files.createDirectories(attachments.resolve(Integer.toString(id)));
        List<Task.Attachment> added = new ArrayList<>();
        try (MultipartReader parts = req.multipart(ATTACHMENTS)) {
            for (Part part = parts.next(); part != null; part = parts.next()) {
                if (part.filename() == null) {
                    continue;
                }
                String name = safeName(part.filename());
                MessageDigest sha = sha256();
                long size;
                try (InputStream in = part.content();
                     OutputStream out = new DigestOutputStream(Files.newOutputStream(dir.resolve(name)), sha)) {
                    size = in.transferTo(out);
                } catch (IOException | RuntimeException e) {
                    Files.deleteIfExists(dir.resolve(name)); // a part past its limit, a client gone: no half file kept
                    throw e;
                }
                added.add(new Task.Attachment(name, size, HexFormat.of().formatHex(sha.digest())));
            }
        }
        Task t = null;
        for (Task.Attachment a : added) {
            t = board.attach(id, a);
        }
        res.json(found(t == null ? board.get(id) : t));
    }

    private void download(Request req, Response res) throws IOException {
        Task t = found(board.get(req.pathParam("id", int.class)));
        String name = req.pathParam("name");
        if (t.attachments().stream().noneMatch(a -> a.name().equals(name))) {
            throw problem(404, "No such attachment", null);
        }
        res.header("Content-Type", "application/octet-stream")
                .header("Content-Disposition", "attachment; filename=\"" + name + "\"")
                .sendFile(attachments.resolve(Integer.toString(t.id())).resolve(name));
    }

    /** An SSE stream of the board's changes; it ends when the page goes away. */
    private void events(Request req, Response res) throws IOException {
        EventStream stream = res.eventStream();
        Runnable stop = board.watch(change -> {
            try {
                stream.send("task", change);
            } catch (IOException ended) {
                stream.close();
            }
        });
        stream.closed().whenComplete((v, e) -> stop.run());
    }

    private static Task found(Task t) {
        if (t == null) {
            throw problem(404, "No such task", null);
        }
        return t;
    }

    /** An answer with an RFC 9457 problem document, for the client's script to show. */
    private static HttpException problem(int status, String title, String detail) {
        return HttpException.problem(new Problem(null, title, status, detail, null), "taskboard: " + title);
    }

    /** The client's file name without any directory part, with only unremarkable characters. */
    static String safeName(String filename) {
        String base = filename.substring(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
        String clean = base.replaceAll("[^A-Za-z0-9._-]", "_");
        return clean.isEmpty() || clean.startsWith(".") ? "file" + clean : clean;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
