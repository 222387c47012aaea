package org.loommpm.websocket.server;

import org.loommpm.api.Handler;
import org.loommpm.api.WebSocketBinding;
import org.loommpm.websocket.WebSocketEndpoint;

/** This module's {@link WebSocketBinding}: an {@link UpgradeHandler} per declared endpoint. */
public final class UpgradeBinding implements WebSocketBinding {
    /** For {@link java.util.ServiceLoader}. */
    public UpgradeBinding() {
    }

    @Override
    public Handler handler(WebSocketEndpoint endpoint) {
        return new UpgradeHandler(endpoint);
    }
}
