package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import org.loommpm.config.ClientChargeSettings;

/**
 * The directives of CPU charged to client addresses and of TLS handshake admission
 * ({@link ClientChargeSettings}): {@code ClientChargeRate}, {@code ClientChargeBurst},
 * {@code ClientChargeTableSize}, {@code TlsHandshakeConcurrency}, {@code TlsHandshakeQueueTimeout},
 * {@code WebSocketMaxInflateRatio}. Values out of range are errors.
 */
final class ChargeDirectives {
    private ChargeDirectives() {
    }

    /** The settings read so far in one configuration (a {@link ParseState} extension). */
    private static final class Current {
        ClientChargeSettings value = ClientChargeSettings.DEFAULTS;
    }

    enum D implements DirectiveTable.Action {
        RATE("ClientChargeRate", 1, "units-per-second"),
        BURST("ClientChargeBurst", 1, "units"),
        TABLE_SIZE("ClientChargeTableSize", 1, "addresses"),
        HANDSHAKE_CONCURRENCY("TlsHandshakeConcurrency", 1, "n"),
        HANDSHAKE_QUEUE_TIMEOUT("TlsHandshakeQueueTimeout", 1, "seconds"),
        INFLATE_RATIO("WebSocketMaxInflateRatio", 2, "ratio [min-bytes]");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Current cur = s.extension("clientCharges", Current::new);
            ClientChargeSettings v = cur.value;
            String first = l.args().get(0);
            try {
                cur.value = switch (this) {
                    case RATE -> v.withRate(Args.integer(l, first, 0, Long.MAX_VALUE), v.burst());
                    case BURST -> v.withRate(v.rate(), Args.integer(l, first, ClientChargeSettings.HANDSHAKE_UNITS,
                            Long.MAX_VALUE));
                    case TABLE_SIZE -> v.withTableSize(Args.intArg(l, 64, 1 << 24));
                    case HANDSHAKE_CONCURRENCY -> v.withHandshakes(Args.intArg(l, 1, 1 << 16), v.handshakeQueueTimeout());
                    case HANDSHAKE_QUEUE_TIMEOUT -> v.withHandshakes(v.handshakeConcurrency(),
                            Args.duration(l, first, false));
                    case INFLATE_RATIO -> v.withInflateRatio((int) Args.integer(l, first, 0, 1 << 20),
                            l.args().size() > 1 ? (int) Args.integer(l, l.args().get(1), 1024, Integer.MAX_VALUE)
                                    : v.inflateRatioMinBytes());
                };
            } catch (IllegalArgumentException e) {
                throw l.error(e.getMessage());
            }
            s.engine.clientCharges(cur.value);
        }

        final DirectiveSpec spec;

        D(String name, int maxArgs, String syntax) {
            spec = new DirectiveSpec(name, 1, maxArgs, SERVER, syntax);
        }
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
