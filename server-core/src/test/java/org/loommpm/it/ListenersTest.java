package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.engine.EngineStats;

/** Several Listen addresses, IPv4 and IPv6, shared by every child; ids unique across children. */
class ListenersTest {
    @Test
    void servesOnEveryListenAddressIncludingIpv6() throws Exception {
        boolean ipv6 = ipv6Loopback();
        LoomServer.Builder b = LoomServer.builder().listen("127.0.0.1", 0).listen("127.0.0.1", 0)
                .configure(c -> c.startServers(3).pollersPerChild(1))
                .handler((req, res) -> res.send(req.localAddress().getPort() + ""));
        if (ipv6) {
            b.listen("::1", 0);
        }
        try (LoomServer server = b.start()) {
            assertEquals(ipv6 ? 3 : 2, server.addresses().size());
            assertNotEquals(server.addresses().get(0).getPort(), server.addresses().get(1).getPort());
            HttpClient http = HttpClient.newHttpClient();
            for (InetSocketAddress a : server.addresses()) {
                String host = a.getAddress() instanceof Inet6Address ? "[::1]" : "127.0.0.1";
                for (int i = 0; i < 20; i++) {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://" + host + ":" + a.getPort() + "/")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                    assertEquals(String.valueOf(a.getPort()), r.body());
                }
            }
            assertEquals(3, EngineStats.of(server.stats()).children().size());
            Set<Integer> ids = new HashSet<>();
            EngineStats.of(server.stats()).children().forEach(c -> ids.add(c.id()));
            assertEquals(3, ids.size());
        }
    }

    /**
     * The first address is held by a socket that never listens, with SO_REUSEPORT so that the
     * server (SO_REUSEPORT too) binds beside it: no other process can take the port meanwhile, as
     * it could a port found free and closed, and a connection to it is refused unless the failed
     * start left its listener open.
     */
    @Test
    void aPortInUseFailsStartAndLeavesNothingBound() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             Socket held = new Socket()) {
            held.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int free = held.getLocalPort();
            assertThrows(IOException.class, () -> LoomServer.builder().reusePort(true)
                    .listen("127.0.0.1", free).listen("127.0.0.1", taken.getLocalPort())
                    .handler((req, res) -> res.send("x")).start());
            assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", free).close(),
                    "the first listener was released");
        }
    }

    private static boolean ipv6Loopback() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
            return true;
        } catch (IOException e) {
            return false; // no IPv6 loopback here: the IPv4 listeners are still tested
        }
    }
}
