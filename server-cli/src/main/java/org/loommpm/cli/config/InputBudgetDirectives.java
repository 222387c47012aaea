package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.util.Locale;
import org.loommpm.config.InputBudgetSettings;

/**
 * The input budget's directives ({@link InputBudgetSettings}, whose {@code DEFAULTS} are the
 * defaults): {@code InputBudget} (bytes, with an optional {@code k}, {@code m} or {@code g}
 * suffix for KiB, MiB, GiB, or {@code N%} of the maximum heap) and
 * {@code WebSocketMessageTimeout}. Values out of range are errors.
 */
final class InputBudgetDirectives {
    private InputBudgetDirectives() {
    }

    /** The settings read so far in one configuration (a {@link ParseState} extension). */
    private static final class Current {
        InputBudgetSettings value = InputBudgetSettings.DEFAULTS;
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        INPUT_BUDGET("InputBudget", "bytes[k|m|g]|N%"),
        MESSAGE_TIMEOUT("WebSocketMessageTimeout", "time");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Current cur = s.extension("inputbudget", Current::new);
            InputBudgetSettings v = cur.value;
            try {
                cur.value = switch (this) {
                    case INPUT_BUDGET -> budget(l, v, l.args().get(0));
                    case MESSAGE_TIMEOUT -> v.withWebSocketMessageTimeout(Args.duration(l, l.args().get(0), false));
                };
            } catch (IllegalArgumentException e) {
                throw l.error(e.getMessage());
            }
            s.engine.inputBudget(cur.value);
        }

        private static InputBudgetSettings budget(ConfigLine l, InputBudgetSettings v, String arg)
                throws ConfigException {
            String a = arg.toLowerCase(Locale.ROOT);
            if (a.endsWith("%")) {
                return v.withHeapPercent((int) Args.integer(l, a.substring(0, a.length() - 1), 1, 90));
            }
            int shift = switch (a.isEmpty() ? ' ' : a.charAt(a.length() - 1)) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            String digits = shift == 0 ? a : a.substring(0, a.length() - 1);
            long n = Args.integer(l, digits, 1, Long.MAX_VALUE >> 30);
            return v.withBytes(n << shift);
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
