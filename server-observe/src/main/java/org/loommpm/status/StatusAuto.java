package org.loommpm.status;

import java.util.Map;
import org.loommpm.spi.CloseReason;

/**
 * {@code ?auto}: mod_status's machine-readable page. The first line is the server's name, then
 * one {@code Key: value} per line with httpd's field names where the concept exists (so existing
 * parsers and exporters read it), then loom-specific fields prefixed {@code Loom}, ending with
 * one {@code LoomChild:} line per child.
 */
final class StatusAuto {
    private StatusAuto() {
    }

    static String render(StatusSnapshot s) {
        StringBuilder b = new StringBuilder(1024 + s.scoreboard().length());
        b.append(oneLine(s.serverName())).append('\n');
        field(b, "ServerVersion", s.version());
        field(b, "ServerMPM", StatusSnapshot.MPM);
        field(b, "CurrentTime", Formats.httpdTime(s.now()));
        field(b, "RestartTime", Formats.httpdTime(s.started()));
        field(b, "ParentServerConfigGeneration", s.generation());
        field(b, "ServerUptimeSeconds", s.uptimeSeconds());
        field(b, "ServerUptime", Formats.uptime(s.uptimeSeconds()));
        field(b, "Total Accesses", s.requests());
        field(b, "Total kBytes", s.bytesSent() / 1024);
        field(b, "Uptime", s.uptimeSeconds());
        field(b, "ReqPerSec", Formats.decimal(s.reqPerSec()));
        field(b, "BytesPerSec", Formats.decimal(s.bytesPerSec()));
        field(b, "BytesPerReq", Formats.decimal(s.bytesPerReq()));
        field(b, "BusyWorkers", s.busy());
        field(b, "GracefulWorkers", s.graceful());
        field(b, "IdleWorkers", s.idle());
        field(b, "Processes", s.children().size());
        field(b, "Stopping", s.stopping());
        field(b, "ConnsTotal", s.open());
        field(b, "ConnsAsyncKeepAlive", s.keepAlive());
        field(b, "LoomWebSockets", s.webSockets());
        field(b, "LoomProxyTunnels", s.proxyTunnels());
        field(b, "LoomInputBudgetUsed", s.inputBudget().used());
        field(b, "LoomInputBudgetMax", s.inputBudget().limit());
        field(b, "LoomInputBudgetHighWater", s.inputBudget().highWater());
        field(b, "LoomInputBudgetRefusals", s.inputBudget().refusals());
        field(b, "ConnsAsyncClosing", s.lingering());
        field(b, "LoomConnsDetached", s.streaming().detached());
        field(b, "LoomSuspendedExchanges", s.streaming().suspended());
        field(b, "LoomEventStreams", s.streaming().eventStreams());
        field(b, "LoomSuspendTimeouts", s.streaming().suspendTimeouts());
        field(b, "Scoreboard", s.scoreboard());
        field(b, "LoomTotalBytes", s.bytesSent());
        field(b, "LoomPendingWorkers", s.pending());
        field(b, "LoomSlotlessWaits", s.streaming().slotless());
        field(b, "LoomConnsAccepted", s.accepted());
        for (CloseReason r : CloseReason.values()) {
            String name = r.name().charAt(0) + r.tag().substring(1);
            field(b, "LoomConnsClosed" + name, s.closed().get(r));
        }
        field(b, "LoomAdmissionOff", s.admissionOff());
        field(b, "LoomAdmissionTransitions", s.admissionTransitions());
        if (s.logLines() != null) {
            StringBuilder ids = new StringBuilder();
            for (Map.Entry<String, Long> e : s.logLines().entrySet()) {
                ids.append(ids.isEmpty() ? "" : " ").append(e.getKey()).append('=').append(e.getValue());
            }
            field(b, "LoomLogLines", ids);
        }
        for (StatusSnapshot.Child c : s.children()) {
            b.append("LoomChild: id=").append(c.id())
                    .append(" generation=").append(c.generation())
                    .append(" state=").append(c.state())
                    .append(" accepting=").append(c.accepting() ? 1 : 0)
                    .append(" admission=").append(c.admissionOpen() ? "on" : "off")
                    .append(" transitions=").append(c.admissionTransitions())
                    .append(" bound=").append(c.connectionBound())
                    .append(" pausedms=").append(c.admissionPausedMillis())
                    .append(" conns=").append(c.open())
                    .append(" keepalive=").append(c.keepAlive())
                    .append(" accepted=").append(c.accepted())
                    .append(" closed=").append(c.closed())
                    .append(" requests=").append(c.requests())
                    .append(" bytes=").append(c.bytesSent())
                    .append(" busy=").append(c.active())
                    .append(" idle=").append(c.idle())
                    .append(" pending=").append(c.pending())
                    .append(" newcomers=").append(c.pendingNewcomers())
                    .append(" recycle=").append(c.recycleSize())
                    .append(" recyclehits=").append(c.recycleHits())
                    .append(" recyclemisses=").append(c.recycleMisses())
                    .append(" scoreboard=").append(c.scoreboard())
                    .append('\n');
        }
        return b.toString();
    }

    private static void field(StringBuilder b, String key, Object value) {
        b.append(key).append(": ").append(value).append('\n');
    }

    /** The server name comes from the client's Host: keep it to one line. */
    private static String oneLine(String s) {
        return s.replaceAll("[\\r\\n]", "");
    }
}
