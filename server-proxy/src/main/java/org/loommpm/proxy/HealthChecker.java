package org.loommpm.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a balancer's active health checks (mod_proxy_hcheck's role) on one virtual thread: each
 * due member is probed in turn with a fresh connection outside its pool; {@code hcfails}
 * consecutive failures take it out of rotation (LM2307), {@code hcpasses} consecutive passes put
 * it back and clear its error state (LM2308). Probes wait as long as the member's connect and
 * read timeouts allow; a member's probes never overlap (one thread).
 *
 * <p><b>Threads.</b> Its own virtual thread ({@code loom-hcheck-NAME}) owns every probe socket
 * from connect to close; it writes the members' {@code hcFailed} (volatile) and {@code hcRun}
 * (its alone).
 */
final class HealthChecker {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");

    private final Balancer balancer;
    private final Thread thread;
    private volatile boolean stopped;

    private HealthChecker(Balancer balancer) {
        this.balancer = balancer;
        this.thread = Thread.ofVirtual().name("loom-hcheck-" + balancer.name()).unstarted(this::run);
    }

    /** Starts the checks of {@code b}'s members, or returns null when none has one. */
    static HealthChecker startFor(Balancer b) {
        for (Member m : b.members()) {
            if (m.healthCheck() != null) {
                HealthChecker c = new HealthChecker(b);
                c.thread.start();
                return c;
            }
        }
        return null;
    }

    void stop() {
        stopped = true;
        thread.interrupt();
    }

    private void run() {
        var members = balancer.members();
        long[] due = new long[members.size()];
        long start = System.nanoTime();
        java.util.Arrays.fill(due, start);
        while (!stopped) {
            long now = System.nanoTime();
            long next = Long.MAX_VALUE;
            for (int i = 0; i < due.length; i++) {
                HealthCheck hc = members.get(i).healthCheck();
                if (hc == null) {
                    continue;
                }
                if (now - due[i] >= 0) {
                    record(members.get(i), hc, probe(members.get(i), hc));
                    due[i] = System.nanoTime() + hc.interval().toNanos();
                }
                next = Math.min(next, due[i]);
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /** One probe: null when it passed, else why it failed. */
    String probe(Member m, HealthCheck hc) {
        try (BackendConnection c = m.pool().openUnpooled()) {
            if (hc.method().equals("TCP")) {
                return null;
            }
            c.readTimeout((int) Math.min(Integer.MAX_VALUE,
                    (m.timeout() != null ? m.timeout() : balancer.timeout()).toMillis()));
            boolean http11 = hc.method().endsWith("11");
            String verb = http11 ? hc.method().substring(0, hc.method().length() - 2) : hc.method();
            String path = m.url().path();
            String uri = hc.uri().isEmpty() ? path
                    : path.endsWith("/") && hc.uri().startsWith("/") ? path + hc.uri().substring(1) : path + hc.uri();
            String req = verb + " " + uri + (http11 ? " HTTP/1.1" : " HTTP/1.0") + "\r\nHost: " + m.url().authority()
                    + "\r\nUser-Agent: loom-mpm-hcheck\r\nConnection: close\r\n\r\n";
            OutputStream out = c.out();
            out.write(req.getBytes(StandardCharsets.ISO_8859_1));
            c.flush();
            ResponseHead head;
            do {
                head = c.readHead();
            } while (head.status() < 200);
            return hc.expect().test(head.status()) ? null : "status " + head.status() + " (expected " + hc.expectText() + ")";
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static void record(Member m, HealthCheck hc, String failure) {
        boolean passed = failure == null;
        // hcRun counts consecutive results of the kind that would change the state.
        if (m.hcFailed == passed) {
            m.hcRun++;
        } else {
            m.hcRun = 0;
        }
        if (!m.hcFailed && !passed && m.hcRun >= hc.fails()) {
            m.hcFailed = true;
            m.hcRun = 0;
            LOG.log(Level.WARNING, "LM2307 health check of {0} failed {1} time(s) in a row: out of rotation ({2})",
                    m, hc.fails(), failure);
        } else if (m.hcFailed && passed && m.hcRun >= hc.passes()) {
            m.hcFailed = false;
            m.errorUntil = 0;
            m.hcRun = 0;
            LOG.log(Level.INFO, "LM2308 health check of {0} passed {1} time(s) in a row: back in rotation", m,
                    hc.passes());
        }
    }
}
