package org.loommpm.examples.taskboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;

/**
 * The example in a real browser: headless Chromium ({@code .ci/run} installs it; skipped where
 * absent) logs in through the form, creates a task, attaches a file through the page's file
 * input (a multipart upload), and a second tab sees a task the first one adds, live (SSE). A
 * screenshot of each step is written to {@code target/surefire-reports/taskboard-screenshots/}
 * and named in the test's output.
 */
class TaskBoardBrowserTest {
    private static final Path SHOTS = Path.of("target", "surefire-reports", "taskboard-screenshots");

    @TempDir
    Path dir;
    private LoomServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void logInCreateUploadAndSeeTheLiveUpdateInASecondPage() throws Exception {
        String executable = Chromium.executable();
        Assumptions.assumeTrue(executable != null, "chromium is not installed (.ci/run installs it)");
        server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(TaskBoard.routes(Map.of("ada", "lovelace"), Path.of("src/main/webapp"), dir.resolve("data")))
                .start();
        String base = "http://127.0.0.1:" + server.port();
        Path upload = Files.writeString(dir.resolve("notes.txt"), "milk, eggs, flour\n");

        try (Chromium chromium = Chromium.launch(executable, dir)) {
            try (Chromium.Page first = chromium.open(base + "/")) {
                first.waitFor("the login page (no session yet)", "location.pathname === '/login.html'");
                shot(first, "1-login");
                first.eval("document.querySelector('[name=user]').value = 'ada';"
                        + "document.querySelector('[name=password]').value = 'lovelace';"
                        + "document.getElementById('login').click(); true");
                first.waitFor("the board after logging in", "location.pathname === '/' && "
                        + "document.getElementById('me').textContent === 'ada' && "
                        + "document.getElementById('live').textContent === 'live'");

                addTask(first, "Buy ingredients");
                first.waitFor("the new task", "[...document.querySelectorAll('#tasks .title')]"
                        + ".some(e => e.textContent === 'Buy ingredients')");
                shot(first, "2-task-created");

                first.setFile("#tasks > li .file", upload);
                first.eval("document.querySelector('#tasks > li .attach button').click(); true");
                first.waitFor("the attachment listed", "document.querySelector('#tasks .files a') && "
                        + "document.querySelector('#tasks .files a').textContent.startsWith('notes.txt')");
                assertEquals("milk, eggs, flour\n", first.eval(
                        "fetch(document.querySelector('#tasks .files a').href).then(r => r.text())").asText(),
                        "the attachment downloads as uploaded");
                shot(first, "3-file-attached");

                try (Chromium.Page second = chromium.open(base + "/")) {
                    second.waitFor("the second page, live", "document.getElementById('live').textContent === 'live' && "
                            + "document.querySelectorAll('#tasks > li').length === 1");
                    addTask(first, "Bake the cake");
                    second.waitFor("the first page's new task, pushed to the second",
                            "[...document.querySelectorAll('#tasks .title')].some(e => e.textContent === 'Bake the cake')");
                    shot(second, "4-second-page-live-update");
                }
            } catch (Exception | AssertionError e) {
                throw new AssertionError(e.getMessage() + "; chromium's log: " + chromium.log(), e);
            }
        }
    }

    private static void addTask(Chromium.Page page, String title) throws Exception {
        page.eval("document.getElementById('title').value = " + quote(title) + ";"
                + "document.getElementById('add').click(); true");
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static void shot(Chromium.Page page, String name) throws Exception {
        Path file = SHOTS.resolve(name + ".png");
        page.screenshot(file);
        System.out.println("[[ATTACHMENT|" + file.toAbsolutePath() + "]]");
    }
}
