package org.loommpm.status;

import static org.loommpm.status.Formats.html;

import java.util.Map;
import org.loommpm.spi.CloseReason;

/**
 * The status page for people, in mod_status's spirit: a summary (uptime, totals, rates, workers,
 * connections), the scoreboard grid with its key, one section per child (its counts and its
 * pollers' table), and the requests being served. Every value that came from a client (Host,
 * method, path) or from configuration is HTML-escaped.
 */
final class StatusHtml {
    /** Letters per grid line, as httpd prints them. */
    private static final int GRID_WIDTH = 64;

    private static final String STYLE = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px 32px;\
            color:#1d2330;background:#fafbfc}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde6;\
            padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
            .sub{color:#5b6475;margin:0 0 16px}
            .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:10px}
            .card{background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:8px 12px}
            .card b{display:block;font-size:19px}.card span{color:#5b6475;font-size:12px}
            pre.grid{font:15px/1.3 "DejaVu Sans Mono",Menlo,Consolas,monospace;background:#fff;border:1px solid #d8dde6;\
            border-radius:6px;padding:8px 12px;margin:4px 0;letter-spacing:1px}
            .s_{color:#9aa3b2}.sR{color:#b35c00;font-weight:bold}.sW{color:#c0392b;font-weight:bold}\
            .sK{color:#1f7a3a;font-weight:bold}.sS{color:#2864b4;font-weight:bold}\
            .sC{color:#6c3fb5;font-weight:bold}.sG{color:#8a6d00;font-weight:bold}\
            .sdot{color:#c4cad4}.sI{color:#9aa3b0}
            table{border-collapse:collapse;background:#fff;margin:4px 0 8px;font-size:13px}
            th,td{border:1px solid #d8dde6;padding:3px 8px;text-align:right;white-space:nowrap}
            th{background:#eef1f5;font-weight:600}td.l,th.l{text-align:left}
            .key{color:#394150;font-size:13px}.key code{font-weight:bold}
            .on{color:#1f7a3a;font-weight:600}.off{color:#c0392b;font-weight:600}
            .path{max-width:420px;overflow:hidden;text-overflow:ellipsis}
            """;

    private StatusHtml() {
    }

    /**
     * @param refreshSeconds the meta refresh interval, or 0 for none
     */
    static String render(StatusSnapshot s, int refreshSeconds) {
        StringBuilder b = new StringBuilder(8192);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
        if (refreshSeconds > 0) {
            b.append("<meta http-equiv=\"refresh\" content=\"").append(refreshSeconds).append("\">\n");
        }
        b.append("<title>loom-mpm status for ").append(html(s.serverName())).append("</title>\n<style>")
                .append(STYLE).append("</style></head><body>\n");
        b.append("<h1>loom-mpm server status for ").append(html(s.serverName())).append("</h1>\n");
        b.append("<p class=\"sub\">").append(html(s.version())).append(" &middot; MPM ").append(StatusSnapshot.MPM)
                .append(" &middot; generation ").append(s.generation())
                .append(" &middot; current time ").append(html(Formats.httpdTime(s.now())))
                .append(" &middot; restarted ").append(html(Formats.httpdTime(s.started())))
                .append(refreshSeconds > 0 ? " &middot; refresh every " + refreshSeconds + " s" : "")
                .append("</p>\n");
        summary(b, s);
        grid(b, s);
        for (StatusSnapshot.Child c : s.children()) {
            child(b, c);
        }
        current(b, s);
        logLines(b, s);
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void summary(StringBuilder b, StatusSnapshot s) {
        b.append("<div class=\"cards\">\n");
        card(b, Formats.uptime(s.uptimeSeconds()), "server uptime");
        card(b, Long.toString(s.requests()), "total accesses");
        card(b, Formats.bytes(s.bytesSent()), "total traffic");
        card(b, Formats.decimal(s.reqPerSec()), "requests/sec");
        card(b, Formats.bytes(s.bytesPerSec()) + "/s", "bytes/sec");
        card(b, Formats.bytes(s.bytesPerReq()), "per request");
        card(b, s.busy() + " / " + s.idle(), "busy / idle workers");
        card(b, Long.toString(s.pending()), "pending (waiting for a slot)");
        card(b, Long.toString(s.streaming().slotless()), "waiting on clients without a slot");
        card(b, Long.toString(s.open()), "connections open");
        card(b, Long.toString(s.keepAlive()), "idle keep-alive (no thread held)");
        card(b, Long.toString(s.webSockets()), "WebSockets open");
        card(b, Long.toString(s.proxyTunnels()), "proxy tunnels open");
        card(b, Formats.bytes(s.inputBudget().used()) + " / " + Formats.bytes(s.inputBudget().limit()),
                "input budget held / max (high water " + Formats.bytes(s.inputBudget().highWater()) + ", "
                        + s.inputBudget().refusals() + " refused)");
        card(b, s.streaming().suspended() + " / " + s.streaming().eventStreams(),
                "suspended / event streams (no thread held)");
        card(b, Long.toString(s.accepted()), "connections accepted");
        StringBuilder closed = new StringBuilder();
        for (CloseReason r : CloseReason.values()) {
            closed.append(closed.isEmpty() ? "" : " / ").append(s.closed().get(r));
        }
        card(b, closed.toString(), "closed: normal / timeout / error / abort");
        b.append("</div>\n");
    }

    private static void card(StringBuilder b, String value, String label) {
        b.append("<div class=\"card\"><b>").append(html(value)).append("</b><span>").append(html(label))
                .append("</span></div>\n");
    }

    private static void grid(StringBuilder b, StatusSnapshot s) {
        b.append("<h2>Scoreboard</h2>\n");
        for (StatusSnapshot.Child c : s.children()) {
            b.append("<div class=\"key\">child ").append(c.id()).append(" (generation ").append(c.generation())
                    .append(", ").append(c.slots()).append(" worker slots)</div>\n<pre class=\"grid\">");
            String letters = c.scoreboard();
            for (int i = 0; i < letters.length(); i++) {
                if (i > 0 && i % GRID_WIDTH == 0) {
                    b.append('\n');
                }
                char ch = letters.charAt(i);
                b.append("<span class=\"s").append(ch == '.' ? "dot" : String.valueOf(ch)).append("\">")
                        .append(ch).append("</span>");
            }
            b.append("</pre>\n");
        }
        if (s.openSlots() > 0) {
            b.append("<div class=\"key\">open slots: ").append(s.openSlots())
                    .append(" more worker slots the pool may start children for (ChildPolicy dynamic)</div>\n");
        }
        b.append("<p class=\"key\">Key: <code>_</code> waiting for work, <code>S</code> starting (virtual "
                + "thread waiting for a CPU, or a child starting), <code>R</code> reading a request, "
                + "<code>W</code> running the handler / writing the response, <code>K</code> keep-alive "
                + "(looking for the next request on the same worker), <code>C</code> closing, <code>L</code> logging (the access log line, after the response), "
                + "<code>G</code> gracefully finishing (child draining), <code>.</code> slot of a draining child "
                + "that takes no more work (or, at the end of the ?auto line, an open slot no child has yet), <code>I</code> slot of a child retired as idle (dynamic policy). A slot is a permit to run one handler task on a virtual thread; idle "
                + "keep-alive connections hold none (they are counted above).</p>\n");
    }

    private static void child(StringBuilder b, StatusSnapshot.Child c) {
        b.append("<h2>Child ").append(c.id()).append(" &middot; generation ").append(c.generation())
                .append(" &middot; ").append(html(c.state()));
        if (!c.drainReason().isEmpty()) {
            b.append(" (").append(html(c.drainReason())).append(')');
        }
        b.append("</h2>\n<table><tr><th>accepting</th><th>admission</th><th>transitions</th><th>paused</th>"
                + "<th>conns open</th><th>bound</th>"
                + "<th>keep-alive</th><th>lingering</th><th>accepted</th><th>closed</th><th>requests</th>"
                + "<th>traffic</th><th>busy</th><th>idle</th><th>pending</th><th>slots</th><th>contexts held</th>"
                + "</tr>\n<tr>");
        b.append("<td class=\"").append(c.accepting() ? "on\">yes" : "off\">no").append("</td>");
        b.append("<td class=\"").append(c.admissionOpen() ? "on\">on" : "off\">off").append("</td>");
        td(b, c.admissionTransitions());
        b.append("<td>").append(c.admissionPausedMillis() / 1000).append(" s</td>");
        td(b, c.open());
        td(b, c.connectionBound());
        td(b, c.keepAlive());
        td(b, c.lingering());
        td(b, c.accepted());
        td(b, c.closed());
        td(b, c.requests());
        b.append("<td>").append(html(Formats.bytes(c.bytesSent()))).append("</td>");
        td(b, c.active());
        td(b, c.idle());
        td(b, c.pending());
        td(b, c.slots());
        td(b, c.contextsHeld());
        b.append("</tr></table>\n");
        b.append("<table><tr><th>poller</th><th>wake-ups</th><th>dispatches</th><th>timers fired</th>"
                + "<th>keep-alive</th><th>lingering</th><th>recycle list</th><th>recycle hits</th>"
                + "<th>recycle misses</th><th>recycle drops</th></tr>\n");
        for (StatusSnapshot.Poller p : c.pollers()) {
            b.append("<tr>");
            td(b, p.index());
            td(b, p.wakeups());
            td(b, p.dispatches());
            td(b, p.timersFired());
            td(b, p.keepAlive());
            td(b, p.lingering());
            td(b, p.recycleSize());
            td(b, p.recycleHits());
            td(b, p.recycleMisses());
            td(b, p.recycleDrops());
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static void current(StringBuilder b, StatusSnapshot s) {
        b.append("<h2>Current requests (").append(s.current().size()).append(")</h2>\n");
        if (s.current().isEmpty()) {
            b.append("<p class=\"key\">none</p>\n");
            return;
        }
        b.append("<table><tr><th>child</th><th>slot</th><th>state</th><th>age (s)</th><th class=\"l\">client</th>"
                + "<th class=\"l\">vhost</th><th class=\"l\">method</th><th class=\"l\">path</th></tr>\n");
        for (StatusSnapshot.Current r : s.current()) {
            b.append("<tr>");
            td(b, r.child());
            td(b, r.slot());
            b.append("<td class=\"s").append(r.state()).append("\">").append(r.state()).append("</td>");
            b.append("<td>").append(Formats.decimal(r.ageMillis() / 1000.0)).append("</td>");
            b.append("<td class=\"l\">").append(html(r.client())).append("</td>");
            b.append("<td class=\"l\">").append(html(r.vhost())).append("</td>");
            b.append("<td class=\"l\">").append(html(r.method())).append("</td>");
            b.append("<td class=\"l path\">").append(html(r.path())).append("</td>");
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static void logLines(StringBuilder b, StatusSnapshot s) {
        if (s.logLines() == null) {
            return;
        }
        b.append("<h2>Error log lines by id</h2>\n<table><tr><th class=\"l\">id</th><th>lines</th></tr>\n");
        for (Map.Entry<String, Long> e : s.logLines().entrySet()) {
            b.append("<tr><td class=\"l\">").append(html(e.getKey())).append("</td>");
            td(b, e.getValue());
            b.append("</tr>\n");
        }
        b.append("</table>\n<p class=\"key\">Since this process started; ids in docs/operations.md, \"Log messages\"."
                + "</p>\n");
    }

    private static void td(StringBuilder b, long n) {
        b.append("<td>").append(n).append("</td>");
    }
}
