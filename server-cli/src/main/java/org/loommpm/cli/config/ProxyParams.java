package org.loommpm.cli.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.loommpm.proxy.Balancer;
import org.loommpm.proxy.HealthCheck;
import org.loommpm.proxy.LbMethod;
import org.loommpm.proxy.Member;

/**
 * The {@code key=value} parameters of {@code ProxyPass}, {@code BalancerMember} and
 * {@code ProxySet}, with httpd's names and units (times in seconds unless they carry a unit, as
 * {@link Args#duration} reads them; httpd's {@code acquire} is in milliseconds), applied to the
 * proxy's builders. Used both to validate a configuration and to build its handlers.
 */
final class ProxyParams {
    private ProxyParams() {
    }

    /**
     * {@code upgrade=} of a {@code ProxyPass} (httpd 2.4.47's mod_proxy_http): the protocol
     * upgrade passed through to the backend, one token ({@code websocket}) or {@code *} for any.
     */
    static String upgrade(ConfigLine l, String v) throws ConfigException {
        if (v.isEmpty() || !v.equals("*") && !v.chars().allMatch(ProxyParams::tokenChar)) {
            throw l.error(l.name() + ": upgrade= takes one protocol name (upgrade=websocket) or *, got '" + v + "'");
        }
        return v.equalsIgnoreCase("ANY") ? "*" : v; // mod_proxy_wstunnel's spelling of any
    }

    /** RFC 9110's tchar, plus '/' for a protocol version ({@code name/version}). */
    private static boolean tokenChar(int c) {
        return c > 32 && c < 127 && "\"(),:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    /** Splits {@code key=value}; the key lowercased. */
    static String[] split(ConfigLine l, String param) throws ConfigException {
        int eq = param.indexOf('=');
        if (eq <= 0) {
            throw l.error(l.name() + ": parameter '" + param + "' is not key=value");
        }
        return new String[] {param.substring(0, eq).toLowerCase(Locale.ROOT), param.substring(eq + 1)};
    }

    /** A member parameter; {@code hcheck} collects the {@code hc*} ones for {@link #healthCheck}. */
    static void member(Member.Builder m, ConfigLine l, String key, String v, Map<String, String> hcheck)
            throws ConfigException {
        try {
            switch (key) {
                case "loadfactor" -> m.loadFactor((int) Args.integer(l, v, 1, 100));
                case "route" -> m.route(v);
                case "status" -> status(m, l, v);
                case "retry" -> m.retry(Args.duration(l, v, true));
                case "max" -> m.max((int) Args.integer(l, v, 1, 100_000));
                case "ttl" -> m.ttl(Args.duration(l, v, false));
                case "timeout" -> m.timeout(Args.duration(l, v, false));
                case "connectiontimeout" -> m.connectTimeout(Args.duration(l, v, false));
                case "acquire" -> m.acquire(Duration.ofMillis(Args.integer(l, v, 1, 3_600_000)));
                case "disablereuse" -> m.disableReuse(onOff(l, key, v));
                case "hcmethod", "hcuri", "hcinterval", "hcpasses", "hcfails", "hcexpr" -> hcheck.put(key, v);
                default -> throw l.error(l.name() + ": unknown or unsupported parameter '" + key + "' (known: loadfactor, "
                        + "route, status, retry, max, ttl, timeout, connectiontimeout, acquire, disablereuse, hcmethod, "
                        + "hcuri, hcinterval, hcpasses, hcfails, hcexpr)");
            }
        } catch (IllegalArgumentException e) {
            throw l.error(l.name() + ": " + e.getMessage());
        }
    }

    /** {@code status=+H}, {@code -H}, {@code +D}, {@code H}: hot standby and disabled flags. */
    private static void status(Member.Builder m, ConfigLine l, String v) throws ConfigException {
        boolean on = true;
        for (char c : v.toUpperCase(Locale.ROOT).toCharArray()) {
            switch (c) {
                case '+' -> on = true;
                case '-' -> on = false;
                case 'H' -> m.hotStandby(on);
                case 'D' -> m.disabled(on);
                default -> throw l.error(l.name() + ": status flag '" + c + "' is not supported (H: hot standby, "
                        + "D: disabled)");
            }
        }
    }

    /** The member's health check from its {@code hc*} parameters, or null when {@code hcmethod} is absent or None. */
    static HealthCheck healthCheck(ConfigLine l, Map<String, String> hc, Map<String, IntPredicate> exprs)
            throws ConfigException {
        String method = hc.get("hcmethod");
        if (method == null || method.equalsIgnoreCase("none")) {
            if (hc.keySet().stream().anyMatch(k -> !k.equals("hcmethod"))) {
                throw l.error(l.name() + ": hc* parameters need hcmethod (TCP, GET, HEAD, OPTIONS, GET11, ...)");
            }
            return null;
        }
        try {
            HealthCheck c = HealthCheck.of(method, hc.getOrDefault("hcuri", ""));
            if (hc.containsKey("hcinterval")) {
                c = c.interval(Args.duration(l, hc.get("hcinterval"), false));
            }
            int passes = hc.containsKey("hcpasses") ? (int) Args.integer(l, hc.get("hcpasses"), 1, 1000) : 1;
            int fails = hc.containsKey("hcfails") ? (int) Args.integer(l, hc.get("hcfails"), 1, 1000) : 1;
            c = c.thresholds(passes, fails);
            String expr = hc.get("hcexpr");
            if (expr != null) {
                IntPredicate p = exprs.get(expr);
                if (p == null) {
                    throw l.error(l.name() + ": hcexpr '" + expr + "' is not defined by a ProxyHCExpr line before it");
                }
                c = c.expect(p, "ProxyHCExpr " + expr);
            }
            return c;
        } catch (IllegalArgumentException e) {
            throw l.error(l.name() + ": " + e.getMessage());
        }
    }

    /** A balancer parameter ({@code ProxySet}, or {@code ProxyPass} to a balancer). */
    static void balancer(Balancer.Builder b, ConfigLine l, String key, String v) throws ConfigException {
        try {
            switch (key) {
                case "lbmethod" -> b.lbMethod(switch (v.toLowerCase(Locale.ROOT)) {
                    case "byrequests" -> LbMethod.BYREQUESTS;
                    case "bybusyness" -> LbMethod.BYBUSYNESS;
                    default -> throw l.error(l.name() + ": lbmethod must be byrequests or bybusyness, got '" + v + "'");
                });
                case "stickysession" -> b.stickySession(v);
                case "maxattempts" -> b.maxAttempts((int) Args.integer(l, v, 0, 64));
                case "nofailover" -> b.noFailover(onOff(l, key, v));
                case "forcerecovery" -> b.forceRecovery(onOff(l, key, v));
                case "timeout" -> b.timeout(Args.duration(l, v, false));
                default -> throw l.error(l.name() + ": unknown or unsupported balancer parameter '" + key
                        + "' (known: lbmethod, stickysession, maxattempts, nofailover, forcerecovery, timeout)");
            }
        } catch (IllegalArgumentException e) {
            throw l.error(l.name() + ": " + e.getMessage());
        }
    }

    private static boolean onOff(ConfigLine l, String key, String v) throws ConfigException {
        if (v.equalsIgnoreCase("on")) {
            return true;
        }
        if (v.equalsIgnoreCase("off")) {
            return false;
        }
        throw l.error(l.name() + ": " + key + " must be On or Off, got '" + v + "'");
    }

    /**
     * {@code ProxyHCExpr}'s expression, the subset health checks use: {@code %{REQUEST_STATUS}}
     * matched against a regular expression ({@code =~ /re/}, {@code !~ /re/}) or compared with a
     * number ({@code -lt -le -gt -ge -eq -ne}, or {@code < <= > >= == !=}).
     */
    static IntPredicate expression(ConfigLine l, String text) throws ConfigException {
        String t = text.strip();
        if (t.startsWith("{") && t.endsWith("}")) {
            t = t.substring(1, t.length() - 1).strip();
        }
        String var = "%{REQUEST_STATUS}";
        if (!t.startsWith(var)) {
            throw l.error("ProxyHCExpr: only %{REQUEST_STATUS} comparisons are supported, got '" + text + "'");
        }
        String rest = t.substring(var.length()).strip();
        int sp = rest.indexOf(' ');
        if (sp < 0) {
            throw l.error("ProxyHCExpr: expected an operator and an operand after %{REQUEST_STATUS}");
        }
        String op = rest.substring(0, sp);
        String operand = rest.substring(sp + 1).strip();
        if (op.equals("=~") || op.equals("!~")) {
            if (operand.length() < 2 || operand.charAt(0) != '/' || operand.charAt(operand.length() - 1) != '/') {
                throw l.error("ProxyHCExpr: a regular expression is written /re/, got '" + operand + "'");
            }
            Pattern p;
            try {
                p = Pattern.compile(operand.substring(1, operand.length() - 1));
            } catch (PatternSyntaxException e) {
                throw l.error("ProxyHCExpr: " + e.getDescription());
            }
            boolean match = op.equals("=~");
            return s -> p.matcher(Integer.toString(s)).find() == match;
        }
        int n = (int) Args.integer(l, operand, 0, 999);
        return switch (op) {
            case "-lt", "<" -> s -> s < n;
            case "-le", "<=" -> s -> s <= n;
            case "-gt", ">" -> s -> s > n;
            case "-ge", ">=" -> s -> s >= n;
            case "-eq", "==" -> s -> s == n;
            case "-ne", "!=" -> s -> s != n;
            default -> throw l.error("ProxyHCExpr: unsupported operator '" + op + "'");
        };
    }
}
