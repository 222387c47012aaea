package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.Curl;

/**
 * The proxy in front of real third-party backends the test starts (Python's {@code http.server},
 * Debian's {@code nginx}) and driven by real clients (curl, the JDK client). Each test skips when
 * its tool is absent here; {@code .ci/run} installs them.
 */
class RealBackendsTest {
    @TempDir
    Path dir;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool));
    }

    private static void awaitPort(int port, Process p) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < end) {
            if (!p.isAlive()) {
                throw new AssertionError("backend exited with " + p.exitValue());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("backend not listening on " + port);
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }

    @Test
    void pythonHttpServerThroughCurlAndTheJdkClient() throws Exception {
        assumeTrue(onPath("python3"), "python3 absent");
        assumeTrue(Curl.available(), "curl absent");
        byte[] file = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(file);
        Files.write(dir.resolve("blob.bin"), file);
        int port = freePort();
        Process py = new ProcessBuilder("python3", "-m", "http.server", Integer.toString(port), "--bind", "127.0.0.1",
                "--directory", dir.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("py.log").toFile()).start();
        try (ProxyHandler proxy = ProxyHandler.builder("/py/", "http://127.0.0.1:" + port + "/").build();
             LoomServer front = Backends.start(proxy)) {
            awaitPort(port, py);
            String base = "http://127.0.0.1:" + front.port() + "/py/";
            Curl.Result r = Curl.run("--max-time", "30", base + "blob.bin");
            assertEquals(0, r.exitCode(), r.stderr());
            assertArrayEquals(file, r.stdout());
            var jdk = Backends.CLIENT.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "blob.bin")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            assertArrayEquals(file, jdk.body());
            Curl.Response missing = Curl.exchange(base + "nope");
            assertEquals(404, missing.status());
            // http.server redirects a directory without its slash: the Location comes back under /py/.
            Files.createDirectories(dir.resolve("sub"));
            Curl.Response redirect = Curl.exchange(base + "sub");
            assertEquals(301, redirect.status());
            assertTrue(redirect.header("location").equals("/sub/") || redirect.header("location").endsWith("/py/sub/"),
                    redirect.header("location"));
        } finally {
            stop(py);
        }
    }

    @Test
    void nginxBackendReusesPooledConnectionsAndSeesForwardedFields() throws Exception {
        assumeTrue(onPath("nginx"), "nginx absent");
        assumeTrue(Curl.available(), "curl absent");
        int port = freePort();
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("index.html"), "from nginx\n");
        Files.writeString(dir.resolve("nginx.conf"), """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    keepalive_requests 10000;
                    server {
                        listen 127.0.0.1:%2$d;
                        root %1$s;
                        location /conn { return 200 "$connection_requests"; }
                        location /xff { return 200 "$http_x_forwarded_for|$http_x_forwarded_host|$http_host"; }
                        location /go { return 302 http://127.0.0.1:%2$d/landed; }
                    }
                }
                """.formatted(dir, port));
        Process nginx = new ProcessBuilder("nginx", "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
        try (ProxyHandler proxy = ProxyHandler.builder("/n/", "http://127.0.0.1:" + port + "/").build();
             LoomServer front = Backends.start(proxy)) {
            awaitPort(port, nginx);
            String base = "http://127.0.0.1:" + front.port() + "/n/";
            assertEquals("from nginx\n", Curl.run(base + "index.html").text());
            int last = 0;
            for (int i = 0; i < 5; i++) {
                last = Integer.parseInt(Backends.get(front, "/n/conn").body());
            }
            assertTrue(last >= 5, "nginx saw " + last + " requests on the pooled connection");
            String xff = Curl.run("-H", "X-Forwarded-For: 10.1.1.1", base + "xff").text();
            assertEquals("10.1.1.1, 127.0.0.1|127.0.0.1:" + front.port() + "|127.0.0.1:" + port, xff);
            Curl.Response go = Curl.exchange(base + "go");
            assertEquals(302, go.status());
            assertEquals("http://127.0.0.1:" + front.port() + "/n/landed", go.header("location"));
        } finally {
            stop(nginx);
        }
    }

    @Test
    void curlUploadsWithExpectContinueAndChunkedThroughTheProxy() throws Exception {
        assumeTrue(Curl.available(), "curl absent");
        byte[] file = new byte[5 * 1024 * 1024];
        new Random(3).nextBytes(file);
        Path f = dir.resolve("up.bin");
        Files.write(f, file);
        try (LoomServer backend = Backends.start((req, res) -> {
            byte[] got = req.bodyBytes();
            res.send(req.method() + " " + got.length + " " + java.util.Arrays.hashCode(got) + " "
                    + (req.header("Transfer-Encoding") != null ? "chunked" : "length"));
        });
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy)) {
            String url = "http://127.0.0.1:" + front.port() + "/up";
            // curl -T sends Expect: 100-continue for a body this large and waits for the 100.
            Curl.Result put = Curl.run("-v", "--max-time", "30", "-T", f.toString(), url);
            assertEquals("PUT " + file.length + " " + java.util.Arrays.hashCode(file) + " length", put.text());
            assertTrue(put.stderr().contains("HTTP/1.1 100"), "curl got the 100 Continue: " + put.stderr());
            Curl.Result chunked = Curl.run("--max-time", "30", "-H", "Transfer-Encoding: chunked", "--data-binary",
                    "@" + f, url);
            assertEquals("POST " + file.length + " " + java.util.Arrays.hashCode(file) + " chunked", chunked.text());
        }
    }
}
