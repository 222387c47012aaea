package org.loommpm.cli.remoteip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code RemoteIPHeader} value is a literal or stops the walk, never looked up:
 * {@code InetAddress.getByName} resolves a string that starts with a dot ({@code .:1}) as a host
 * name, which would block the poller (the filter runs there) on the name service for any client
 * that sends one, and let the name service choose the client. Checked in a JVM whose name
 * service is a hosts file that does answer for {@code .:1}, so a lookup shows as a client.
 */
class NoNameLookupTest {
    @TempDir
    Path dir;

    /** The child JVM: walks {@code X-Forwarded-For: .:1} from a listed proxy and prints the client. */
    public static void main(String[] args) throws Exception {
        var r = new RemoteIpResolver(List.of()).resolve(InetAddress.getByAddress(new byte[] {(byte) 198, 51, 100, 1}), ".:1");
        System.out.print(r.client() + " " + r.remaining());
    }

    @Test
    void aValueStartingWithADotStopsTheWalkWithoutALookup() throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "203.0.113.66 .:1\n");
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "-Djdk.net.hosts.file=" + hosts, "-cp", System.getProperty("java.class.path"),
                NoNameLookupTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals("null .:1", out);
    }
}
