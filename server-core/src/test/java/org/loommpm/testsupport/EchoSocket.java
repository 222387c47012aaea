package org.loommpm.testsupport;

import java.util.concurrent.BlockingQueue;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * A backend's WebSocket echo for the proxy tunnel tests: text and binary messages come back as
 * they went, a text {@code close:CODE} makes the backend close with that code, and each close
 * the backend sees is reported to {@code events} as {@code close CODE}. Shared by every module's
 * tests through server-core's test-jar.
 */
public final class EchoSocket implements WebSocketHandler {
    private final BlockingQueue<String> events;

    /** @param events where the backend's closes are reported */
    public EchoSocket(BlockingQueue<String> events) {
        this.events = events;
    }

    @Override
    public void onText(WebSocketSession s, String text) {
        if (text.startsWith("close:")) {
            s.close(Integer.parseInt(text.substring(6)), "asked");
        } else {
            s.sendText(text);
        }
    }

    @Override
    public void onBinary(WebSocketSession s, byte[] data) {
        s.sendBinary(data);
    }

    @Override
    public void onClose(WebSocketSession s, int code, String reason) {
        events.add("close " + code);
    }
}
