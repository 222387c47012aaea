package org.loommpm.cli.logging;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * A compiled {@code LogFormat} string. Supported codes (httpd's meaning): {@code %%}, {@code %a},
 * {@code %A}, {@code %b}, {@code %B}, {@code %D}, {@code %h}, {@code %H}, {@code %{Name}i},
 * {@code %{Name}o}, {@code %I}, {@code %l}, {@code %m}, {@code %O}, {@code %p}, {@code %P},
 * {@code %q}, {@code %r}, {@code %s}, {@code %>s}, {@code %<s}, {@code %t}, {@code %T},
 * {@code %{ms}T}, {@code %{us}T}, {@code %{s}T}, {@code %u}, {@code %U}, {@code %v}, {@code %V}.
 * Anything else is refused when the configuration is read, so a typo never reaches the log.
 * Values from the request are escaped as httpd does ({@code "} and {@code \} with a backslash,
 * control and non-ASCII bytes as {@code \xhh}), so a client cannot forge log lines.
 */
public final class AccessLogFormat {
    /**
     * One piece of a line: literal text, or a % code with its argument. A switch on the code
     * rather than a lambda per code keeps reading the configuration free of class spinning.
     */
    private record Item(char code, String arg) {
        void append(StringBuilder sb, Exchange x) {
            Request rq = x.request();
            switch (code) {
                case 0 -> sb.append(arg);
                case 'a', 'h' -> ip(sb, rq.remoteAddress());
                case 'A' -> ip(sb, rq.localAddress());
                case 'b' -> {
                    long b = x.response().bodyBytesSent();
                    sb.append(b <= 0 ? "-" : Long.toString(b));
                }
                case 'B' -> sb.append(Math.max(0, x.response().bodyBytesSent()));
                case 'D' -> sb.append(x.nanos() / 1000);
                case 'T' -> sb.append(x.nanos() / (arg.equals("ms") ? 1_000_000L : arg.equals("us") ? 1000L
                        : 1_000_000_000L));
                case 'H' -> sb.append(rq.protocol());
                case 'i' -> escaped(sb, rq.header(arg));
                case 'o' -> escaped(sb, x.response().headers().first(arg));
                case 'I' -> sb.append(Math.max(0, rq.bytesReceived()));
                case 'O' -> sb.append(Math.max(0, x.response().bytesSent()));
                case 'l', 'u' -> sb.append('-');
                case 'm' -> escaped(sb, rq.method());
                case 'p' -> sb.append(rq.localAddress().getPort());
                case 'P' -> sb.append(Pid.TEXT);
                case 'q' -> {
                    if (rq.query() != null) {
                        sb.append('?');
                        escaped(sb, rq.query());
                    }
                }
                case 'r' -> {
                    escaped(sb, rq.method());
                    sb.append(' ');
                    escaped(sb, rq.rawTarget());
                    sb.append(' ').append(rq.protocol());
                }
                case 's' -> sb.append(x.status());
                case 't' -> sb.append(ClfTime.format(x.startMillis()));
                case 'U' -> escaped(sb, rq.path());
                case 'v', 'V' -> sb.append(x.serverName() != null ? x.serverName() : "-");
                default -> throw new IllegalStateException("unchecked code %" + code);
            }
        }
    }

    /**
     * What one finished request gives the format.
     *
     * @param request the request
     * @param response the response (status and byte counts read after the handler returned)
     * @param status the final status
     * @param startMillis when the request arrived (wall clock)
     * @param nanos how long it took
     * @param serverName {@code ServerName}, or null
     */
    public record Exchange(Request request, Response response, int status, long startMillis, long nanos,
                           String serverName) {
    }

    private final Item[] items;

    private AccessLogFormat(Item[] items) {
        this.items = items;
    }

    /**
     * @throws IllegalArgumentException naming an unknown or malformed code
     */
    public static AccessLogFormat compile(String format) {
        List<Item> items = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        int n = format.length();
        while (i < n) {
            char c = format.charAt(i++);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            if (i >= n) {
                throw new IllegalArgumentException("format ends with a lone '%'");
            }
            String arg = null;
            if (format.charAt(i) == '{') {
                int close = format.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unterminated %{...} in the format");
                }
                arg = format.substring(i + 1, close);
                i = close + 1;
            }
            while (i < n && (format.charAt(i) == '>' || format.charAt(i) == '<')) {
                i++; // original vs final status: the same here, no internal redirects
            }
            if (i >= n) {
                throw new IllegalArgumentException("format ends inside a % code");
            }
            char code = format.charAt(i++);
            if (code == '%') {
                literal.append('%');
                continue;
            }
            if (!literal.isEmpty()) {
                items.add(new Item((char) 0, literal.toString()));
                literal.setLength(0);
            }
            items.add(item(code, arg));
        }
        if (!literal.isEmpty()) {
            items.add(new Item((char) 0, literal.toString()));
        }
        return new AccessLogFormat(items.toArray(new Item[0]));
    }

    /** Checks a code and its argument. */
    private static Item item(char code, String arg) {
        switch (code) {
            case 'a', 'h', 'A', 'b', 'B', 'D', 'H', 'I', 'O', 'l', 'u', 'm', 'p', 'P', 'q', 'r', 's', 'U', 'v', 'V' -> {
                return new Item(code, arg);
            }
            case 'i', 'o' -> {
                if (arg == null || arg.isEmpty()) {
                    throw new IllegalArgumentException("%" + code + " needs a header name: %{Name}" + code);
                }
                return new Item(code, arg);
            }
            case 'T' -> {
                String unit = arg == null ? "s" : arg.toLowerCase(Locale.ROOT);
                if (!unit.equals("s") && !unit.equals("ms") && !unit.equals("us")) {
                    throw new IllegalArgumentException("%{" + arg + "}T: the unit must be s, ms or us");
                }
                return new Item(code, unit);
            }
            case 't' -> {
                if (arg != null) {
                    throw new IllegalArgumentException("%{" + arg + "}t: custom time formats are not supported");
                }
                return new Item(code, null);
            }
            default -> throw new IllegalArgumentException("unrecognized LogFormat directive %" + code);
        }
    }

    /** The address as text; an IPv4 one digit by digit, without the string the JDK would build. */
    static void ip(StringBuilder sb, InetSocketAddress a) {
        if (a == null) {
            sb.append('-');
        } else if (a.getAddress() instanceof Inet4Address v4) {
            byte[] b = v4.getAddress();
            sb.append(b[0] & 0xFF).append('.').append(b[1] & 0xFF).append('.').append(b[2] & 0xFF).append('.')
                    .append(b[3] & 0xFF);
        } else {
            sb.append(a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString());
        }
    }

    /** httpd's escaping of client-supplied text; {@code -} for an absent value. */
    static void escaped(StringBuilder sb, String s) {
        if (s == null) {
            sb.append('-');
            return;
        }
        int clean = 0;
        while (clean < s.length() && plain(s.charAt(clean))) {
            clean++;
        }
        if (clean == s.length()) {
            sb.append(s); // the usual case: one copy rather than an append per character
            return;
        }
        sb.append(s, 0, clean);
        for (int i = clean; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else {
                for (byte b : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    sb.append("\\x").append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
                }
            }
        }
    }

    /** Printable ASCII other than the two characters escaped with a backslash. */
    private static boolean plain(char c) {
        return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    }

    /** Appends one line (without its newline) for a finished exchange. */
    public void format(StringBuilder sb, Exchange x) {
        for (Item it : items) {
            it.append(sb, x);
        }
    }
}
