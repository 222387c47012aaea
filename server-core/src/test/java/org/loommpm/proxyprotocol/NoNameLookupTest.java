package org.loommpm.proxyprotocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A v1 address is a literal or refused, never looked up: {@code InetAddress.getByName} resolves
 * a string that starts with a dot ({@code .:1}) as a host name, which would block the poller on
 * the name service and let it choose the client's address. Checked in a JVM whose name service
 * is a hosts file that does answer for {@code .:1}, so a lookup shows as an accepted header.
 */
class NoNameLookupTest {
    @TempDir
    Path dir;

    /** The child JVM: parses a v1 header naming {@code .:1} and prints what came of it. */
    public static void main(String[] args) {
        byte[] h = "PROXY TCP6 .:1 ::1 1000 443\r\n".getBytes(StandardCharsets.US_ASCII);
        try {
            System.out.print("accepted " + ProxyHeaderParser.parse(h, 0, h.length).source());
        } catch (ProxyHeaderException e) {
            System.out.print("refused");
        }
    }

    @Test
    void aV1AddressStartingWithADotIsRefusedWithoutALookup() throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "2001:db8::66 .:1\n");
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "-Djdk.net.hosts.file=" + hosts, "-cp", System.getProperty("java.class.path"),
                NoNameLookupTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals("refused", out);
    }
}
