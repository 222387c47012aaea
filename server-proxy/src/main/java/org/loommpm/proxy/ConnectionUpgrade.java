package org.loommpm.proxy;

import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.http.ResponseState;

/**
 * An HTTP/1.1 request with {@code Upgrade} and {@code Connection: upgrade}: it goes to the backend
 * with its {@code Upgrade} value, the backend's {@code 101} is answered {@code 101} and the
 * client's connection becomes a {@link Tunnel} once that is written ({@link TunnelUpgrade}).
 *
 * @param policy what the route passes through
 * @param asked the client's {@code Upgrade} fields
 * @param value the {@code Upgrade} value sent to the backend (the client's, joined)
 */
record ConnectionUpgrade(UpgradePolicy policy, Headers asked, String value) implements ClientUpgrade {
    /** A backend may decline the upgrade with an ordinary answer (RFC 9110 §7.8): relayed as any. */
    @Override
    public boolean successMeansSwitched() {
        return false;
    }

    @Override
    public String method(Request req) {
        return req.method();
    }

    @Override
    public boolean drops(String name) {
        return false;
    }

    @Override
    public void appendTo(HeadSink head) {
        head.ascii("Connection: Upgrade\r\nUpgrade: ").ascii(value).ascii("\r\n");
    }

    @Override
    public String refusal(ResponseHead switched) {
        String to = switched.headers().first("Upgrade");
        if (!policy.allows(switched.headers()) || !asked.hasToken("Upgrade", to)) {
            return "it switched to \"" + to + "\", not a protocol asked for";
        }
        return null;
    }

    @Override
    public void answer(ResponseState res, ResponseHead switched, TunnelRelay relay) {
        Headers from = switched.headers();
        Headers to = res.headers();
        ProxyExchange.copyEndToEnd(from, to);
        to.add("Upgrade", String.join(", ", from.all("Upgrade")));
        res.status(101);
        res.upgrade(new TunnelUpgrade(relay));
    }
}
