package org.loommpm.http;

import java.util.HashMap;
import java.util.Map;
import org.loommpm.api.Request;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.spi.InputBudget;

/**
 * {@code Request.attributes()} for both protocols: a map per exchange, made on first use (most
 * requests never ask), and what ends with the exchange. {@link ExchangeRunner} releases it when
 * the handler's call ends, whatever the outcome: a {@code Request.multipart()} reader cached
 * there is closed, which deletes its temporary files (success, a handler's failure, a client gone
 * mid-upload alike), and a body read whole gives its bytes back to the input budget. The map
 * itself is dropped with the request object, which each exchange makes anew, so nothing carries
 * over to the next request of a connection.
 */
public final class RequestAttributes {
    /** A protocol's request: the attributes it made, if any. */
    public interface Holder {
        /** {@return the exchange's attributes, or {@code null} when nobody asked for them} */
        Map<String, Object> attributesOrNull();
    }

    private RequestAttributes() {
    }

    /** {@return a new, empty attribute map} */
    public static Map<String, Object> create() {
        return new HashMap<>(8);
    }

    /**
     * Ends what the exchange's attributes hold for it. Never throws: the handler's outcome is
     * what the client gets.
     *
     * @param req the protocol's request (a wrapper's delegate is the same map, so the protocol's
     *            own request is the one asked)
     */
    public static void release(Request req) {
        if (req instanceof Holder h) {
            Map<String, Object> attributes = h.attributesOrNull();
            if (attributes != null
                    && attributes.get(MultipartReader.class.getName()) instanceof MultipartReader reader) {
                reader.close(); // logs (LM2732) a file it cannot delete, throws nothing
            }
            if (attributes != null
                    && attributes.get(InputBudget.Hold.class.getName()) instanceof InputBudget.Hold held) {
                held.releaseAll();
            }
        }
    }

    /**
     * {@return what the exchange's bodies read whole hold of the input budget, released when the
     * exchange ends ({@link #release}); made on first use}
     *
     * @param req the protocol's request
     * @param budget the child's input budget
     */
    static InputBudget.Hold bodyHold(Request req, InputBudget budget) {
        return (InputBudget.Hold) req.attributes().computeIfAbsent(InputBudget.Hold.class.getName(),
                k -> new InputBudget.Hold(budget, InputBudget.Consumer.REQUEST_BODY));
    }
}
