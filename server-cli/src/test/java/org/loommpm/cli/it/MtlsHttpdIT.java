package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/**
 * Client certificates, the jar against httpd (Debian's {@code apache2} with mod_ssl, issue 52):
 * a CA, an intermediate CA, clients signed by each, one revoked by a CRL, one self-signed, all
 * made with the {@code openssl} command; four configurations ({@code SSLVerifyClient require}
 * with a CRL checked, {@code optional} with {@code Require ssl-verify-client} on one location,
 * {@code SSLVerifyDepth 2}, and {@code SSLCACertificatePath}) given to both, and every client
 * (and none) asks both for two paths with curl. What must agree: the handshake refused, or the
 * status. Skipped when apache2, mod_ssl, openssl or curl is missing.
 */
class MtlsHttpdIT {
    private static final List<String> MODULES = List.of("authz_core", "ssl", "socache_shmcb");
    private static final List<String> CLIENTS = List.of("none", "alice", "mallory", "eve", "bob");

    /** The configurations, keyed by a name for the report; {@code %1$s} is the directory. */
    private static final Map<String, String> CONFIGS = configs();

    @TempDir
    Path dir;

    private static Map<String, String> configs() {
        String common = """
                DocumentRoot %1$s/docs
                SSLCertificateFile %1$s/server.pem
                SSLCertificateKeyFile %1$s/server.key
                """;
        Map<String, String> m = new LinkedHashMap<>();
        m.put("require+crl", common + """
                SSLVerifyClient require
                SSLVerifyDepth 1
                SSLCACertificateFile %1$s/ca.pem
                SSLCARevocationFile %1$s/crl.pem
                SSLCARevocationCheck chain
                """);
        m.put("optional", common + """
                SSLVerifyClient optional
                SSLCACertificateFile %1$s/ca.pem
                <Location /certs>
                    Require ssl-verify-client
                </Location>
                """);
        m.put("depth2", common + """
                SSLVerifyClient require
                SSLVerifyDepth 2
                SSLCACertificateFile %1$s/ca.pem
                """);
        m.put("capath", common + """
                SSLVerifyClient require
                SSLCACertificatePath %1$s/cadir
                """);
        return m;
    }

    @Test
    void theJarAndHttpdVerifyClientCertificatesAlike() throws Exception {
        assumeTrue(Httpd.installed(MODULES) && Curl.available() && Files.isExecutable(Path.of("/usr/bin/openssl")),
                "apache2 with mod_ssl, curl or openssl is not installed: skipped");
        makePki();
        List<String> rows = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> config : CONFIGS.entrySet()) {
            String rules = config.getValue().formatted(dir);
            Path run = Files.createDirectories(dir.resolve("run-" + config.getKey()));
            Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(run.resolve("loom.conf"), "Listen 127.0.0.1:0 https\nCustomLog /dev/null common\n" + rules);
            try (Httpd httpd = Httpd.start(run, MODULES, "SSLEngine on\n" + rules);
                 JarProcess loom = JarProcess.start(run, "-f", "loom.conf")) {
                int loomPort = loom.ports().get(0);
                for (String client : CLIENTS) {
                    for (String path : List.of("/open/a.txt", "/certs/a.txt")) {
                        String h = outcome(httpd.port(), client, path);
                        String l = outcome(loomPort, client, path);
                        String row = config.getKey() + " " + client + " " + path + " | " + h + " | " + l;
                        rows.add(row);
                        if (!h.equals(l)) {
                            wrong.add(row);
                        }
                    }
                }
            }
        }
        System.out.println("configuration client path | httpd | loom-mpm\n" + String.join("\n", rows));
        assertTrue(rows.size() >= 40, "cases: " + rows.size());
        assertEquals(List.of(), wrong, "differences from httpd:\n" + String.join("\n", wrong));
    }

    /** "refused" when the TLS handshake (or the connection right after it) fails, else the status. */
    private String outcome(int port, String client, String path) throws Exception {
        List<String> args = new ArrayList<>(List.of("-k", "--tlsv1.2"));
        if (!client.equals("none")) {
            args.addAll(List.of("--cert", dir.resolve(client + "-chain.pem").toString(), "--key", dir.resolve(client + ".key").toString()));
        }
        args.add("https://127.0.0.1:" + port + path);
        Curl.Response r = Curl.exchange(args.toArray(String[]::new));
        return r.exit() != 0 || r.status() == 0 ? "refused" : Integer.toString(r.status());
    }

    /** The CA, the intermediate CA, the server and the clients, and a CRL revoking mallory. */
    private void makePki() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String p : List.of("docs/open/a.txt", "docs/certs/a.txt")) {
            Files.createDirectories(dir.resolve(p).getParent());
            Files.writeString(dir.resolve(p), p + "\n");
        }
        Files.writeString(dir.resolve("ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n");
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
        Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Test Root CA", "-keyout", "ca.key", "-out", "ca.pem");
        issue("inter", "Test Intermediate CA", "ca", "ca.ext");
        issue("server", "localhost", "ca", "server.ext");
        issue("alice", "alice", "ca", "client.ext");
        issue("mallory", "mallory", "ca", "client.ext");
        issue("bob", "bob", "inter", "client.ext");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=eve", "-keyout", "eve.key", "-out", "eve.pem");
        Files.writeString(dir.resolve("bob-chain.pem"), Files.readString(dir.resolve("bob.pem")) + Files.readString(dir.resolve("inter.pem")));
        for (String c : List.of("alice", "mallory", "eve")) {
            Files.copy(dir.resolve(c + ".pem"), dir.resolve(c + "-chain.pem"));
        }
        Files.writeString(dir.resolve("index.txt"), "");
        Files.writeString(dir.resolve("crlnumber"), "01\n");
        Files.writeString(dir.resolve("ca.cnf"), """
                [ca]
                default_ca = CA_default
                [CA_default]
                database = %1$s/index.txt
                crlnumber = %1$s/crlnumber
                certificate = %1$s/ca.pem
                private_key = %1$s/ca.key
                default_md = sha256
                default_crl_days = 2
                """.formatted(dir));
        openssl("ca", "-config", "ca.cnf", "-revoke", "mallory.pem");
        openssl("ca", "-config", "ca.cnf", "-gencrl", "-out", "crl.pem");
        Path cadir = Files.createDirectories(dir.resolve("cadir"));
        Files.copy(dir.resolve("ca.pem"), cadir.resolve("ca.pem"));
        openssl("rehash", cadir.toString());
        Httpd.openToOthers(dir);
    }

    private void issue(String name, String cn, String issuer, String ext) throws Exception {
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + cn,
                "-keyout", name + ".key", "-out", name + ".csr");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", issuer + ".pem", "-CAkey", issuer + ".key", "-CAcreateserial",
                "-days", "2", "-extfile", ext, "-out", name + ".pem");
    }

    private void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl " + String.join(" ", args) + ": " + out);
    }
}
