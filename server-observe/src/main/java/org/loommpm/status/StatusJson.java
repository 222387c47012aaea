package org.loommpm.status;

import java.util.Map;
import org.loommpm.spi.CloseReason;

/** {@code ?json}: everything the status page shows, as one JSON object (field list in docs/observability.md). */
final class StatusJson {
    private StatusJson() {
    }

    static String render(StatusSnapshot s) {
        JsonWriter j = new JsonWriter().beginObject();
        j.name("server").beginObject()
                .field("name", s.serverName())
                .field("version", s.version())
                .field("mpm", StatusSnapshot.MPM)
                .field("currentTime", s.now().toString())
                .field("restartTime", s.started().toString())
                .field("uptimeSeconds", s.uptimeSeconds())
                .field("generation", s.generation())
                .endObject();
        j.name("totals").beginObject()
                .field("accesses", s.requests())
                .field("kBytes", s.bytesSent() / 1024)
                .field("bytes", s.bytesSent())
                .field("reqPerSec", s.reqPerSec())
                .field("bytesPerSec", s.bytesPerSec())
                .field("bytesPerReq", s.bytesPerReq())
                .endObject();
        j.name("workers").beginObject()
                .field("busy", s.busy())
                .field("idle", s.idle())
                .field("pending", s.pending())
                .field("graceful", s.graceful())
                .endObject();
        j.name("connections").beginObject()
                .field("open", s.open())
                .field("accepted", s.accepted())
                .field("keepAlive", s.keepAlive())
                .field("webSockets", s.webSockets())
                .field("proxyTunnels", s.proxyTunnels())
                .field("lingering", s.lingering());
        j.name("closed").beginObject();
        for (CloseReason r : CloseReason.values()) {
            j.field(r.tag(), s.closed().get(r));
        }
        j.endObject().endObject();
        j.name("inputBudget").beginObject()
                .field("used", s.inputBudget().used())
                .field("max", s.inputBudget().limit())
                .field("highWater", s.inputBudget().highWater())
                .field("refusals", s.inputBudget().refusals())
                .endObject();
        j.name("streaming").beginObject()
                .field("detached", s.streaming().detached())
                .field("slotless", s.streaming().slotless())
                .field("suspended", s.streaming().suspended())
                .field("eventStreams", s.streaming().eventStreams())
                .field("suspendTimeouts", s.streaming().suspendTimeouts())
                .endObject();
        j.field("scoreboard", s.scoreboard());
        j.name("children").beginArray();
        for (StatusSnapshot.Child c : s.children()) {
            child(j, c);
        }
        j.endArray();
        j.name("requests").beginArray();
        for (StatusSnapshot.Current r : s.current()) {
            j.beginObject()
                    .field("child", r.child())
                    .field("slot", r.slot())
                    .field("state", String.valueOf(r.state()))
                    .field("client", r.client())
                    .field("vhost", r.vhost())
                    .field("method", r.method())
                    .field("path", r.path())
                    .field("ageMillis", r.ageMillis())
                    .endObject();
        }
        j.endArray();
        if (s.logLines() != null) {
            j.name("logLines").beginObject();
            for (Map.Entry<String, Long> e : s.logLines().entrySet()) {
                j.field(e.getKey(), e.getValue().longValue());
            }
            j.endObject();
        }
        return j.endObject().toString();
    }

    private static void child(JsonWriter j, StatusSnapshot.Child c) {
        j.beginObject()
                .field("id", c.id())
                .field("generation", c.generation())
                .field("state", c.state())
                .field("drainReason", c.drainReason())
                .field("accepting", c.accepting());
        j.name("admission").beginObject()
                .field("open", c.admissionOpen())
                .field("transitions", c.admissionTransitions())
                .field("connectionBound", c.connectionBound())
                .field("pausedMillis", c.admissionPausedMillis())
                .endObject();
        j.name("connections").beginObject()
                .field("open", c.open())
                .field("accepted", c.accepted())
                .field("closed", c.closed())
                .field("keepAlive", c.keepAlive())
                .field("lingering", c.lingering())
                .endObject();
        j.field("requests", c.requests()).field("bytes", c.bytesSent());
        j.name("workers").beginObject()
                .field("slots", c.slots())
                .field("active", c.active())
                .field("idle", c.idle())
                .field("pending", c.pending())
                .field("pendingNewcomers", c.pendingNewcomers())
                .endObject();
        j.field("contextsHeld", c.contextsHeld());
        j.name("recycle").beginObject()
                .field("size", c.recycleSize())
                .field("hits", c.recycleHits())
                .field("misses", c.recycleMisses())
                .field("drops", c.recycleDrops())
                .endObject();
        j.field("scoreboard", c.scoreboard());
        j.name("pollers").beginArray();
        for (StatusSnapshot.Poller p : c.pollers()) {
            j.beginObject()
                    .field("index", p.index())
                    .field("wakeups", p.wakeups())
                    .field("dispatches", p.dispatches())
                    .field("timersFired", p.timersFired())
                    .field("keepAlive", p.keepAlive())
                    .field("lingering", p.lingering())
                    .field("recycleSize", p.recycleSize())
                    .field("recycleHits", p.recycleHits())
                    .field("recycleMisses", p.recycleMisses())
                    .field("recycleDrops", p.recycleDrops())
                    .endObject();
        }
        j.endArray().endObject();
    }
}
