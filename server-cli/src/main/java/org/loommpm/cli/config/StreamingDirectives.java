package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import org.loommpm.config.StreamingSettings;

/**
 * The directives of long-lived responses ({@link StreamingSettings}): {@code OutboundQueueLimit},
 * {@code SuspendTimeout}, {@code EventStreamHeartbeat}. Values out of range are errors.
 */
final class StreamingDirectives {
    private StreamingDirectives() {
    }

    /** The settings read so far in one configuration (a {@link ParseState} extension). */
    private static final class Current {
        StreamingSettings value = StreamingSettings.DEFAULTS;
    }

    enum D implements DirectiveTable.Action {
        OUTBOUND_QUEUE_LIMIT("OutboundQueueLimit", "bytes"),
        SUSPEND_TIMEOUT("SuspendTimeout", "seconds"),
        EVENT_STREAM_HEARTBEAT("EventStreamHeartbeat", "seconds");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Current cur = s.extension("streaming", Current::new);
            StreamingSettings v = cur.value;
            try {
                cur.value = switch (this) {
                    case OUTBOUND_QUEUE_LIMIT -> v.withOutboundQueueLimit(Args.intArg(l, 1024, Integer.MAX_VALUE));
                    case SUSPEND_TIMEOUT -> v.withSuspendTimeout(Args.duration(l, l.args().get(0), false));
                    case EVENT_STREAM_HEARTBEAT -> v.withEventStreamHeartbeat(Args.duration(l, l.args().get(0), true));
                };
            } catch (IllegalArgumentException e) {
                throw l.error(e.getMessage());
            }
            s.engine.streaming(cur.value);
        }

        final DirectiveSpec spec;

        D(String name, String syntax) {
            spec = new DirectiveSpec(name, 1, 1, SERVER, syntax);
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
