package org.loommpm.cli.status;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;

/**
 * {@code SetHandler server-status}: a small plain-text page from {@link EngineStats}: the
 * generation, connection totals and, per child, its generation, whether it accepts, its workers
 * and its scoreboard line. (The full mod_status page is separate work; this is the minimum an
 * operator needs to watch a graceful restart.) {@code ?auto} is accepted and gives the same
 * machine-readable {@code key: value} text.
 */
public final class StatusPage implements Handler {
    private final Supplier<EngineStats> stats;

    /** @param stats the running server's counters (read per request) */
    public StatusPage(Supplier<EngineStats> stats) {
        this.stats = stats;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        EngineStats s = stats.get();
        StringBuilder sb = new StringBuilder(512);
        sb.append("Generation: ").append(s.generation()).append('\n')
                .append("ConnectionsAccepted: ").append(s.connectionsAccepted()).append('\n')
                .append("ConnectionsClosed: ").append(s.connectionsClosed()).append('\n')
                .append("ConnectionsOpen: ").append(s.connectionsOpen()).append('\n')
                .append("Children: ").append(s.children().size()).append('\n');
        for (ChildStats c : s.children()) {
            sb.append("Child ").append(c.id())
                    .append(": generation=").append(c.generation())
                    .append(" accepting=").append(c.accepting() ? "yes" : "no")
                    .append(c.drainReason().isEmpty() ? "" : " draining=\"" + c.drainReason() + "\"")
                    .append(" active=").append(c.activeWorkers())
                    .append(" idle=").append(c.idleWorkers())
                    .append(" pending=").append(c.pendingWorkers())
                    .append(" open=").append(c.openConnections())
                    .append(" pollers=").append(c.pollers())
                    .append('\n')
                    .append("Scoreboard ").append(c.id()).append(": ").append(c.scoreboard().render()).append('\n');
        }
        response.header("Content-Type", "text/plain; charset=UTF-8");
        response.header("Cache-Control", "no-store");
        response.send(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
}
