package org.loommpm.cli.logging;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.remoteip.RemoteIpRequest;

/**
 * A compiled {@code LogFormat} string. Supported codes (httpd's meaning): {@code %%}, {@code %a}
 * and {@code %h} (the client: behind {@code RemoteIPHeader}, the address the proxies vouched for;
 * httpd 2.4.19 and later log {@code %h} so, with {@code HostnameLookups Off}), {@code %{c}a} and
 * {@code %{c}h} (the connection's peer),
 * {@code %A}, {@code %b}, {@code %B}, {@code %D}, {@code %H}, {@code %{Name}i},
 * {@code %{Name}o}, {@code %I}, {@code %l}, {@code %m}, {@code %O}, {@code %p}, {@code %P},
 * {@code %q}, {@code %r}, {@code %s}, {@code %>s}, {@code %<s}, {@code %t}, {@code %T},
 * {@code %{ms}T}, {@code %{us}T}, {@code %{s}T}, {@code %u}, {@code %U}, {@code %v}, {@code %V}.
 * Anything else is refused when the configuration is read, so a typo never reaches the log.
 * Values from the request are escaped as httpd does ({@code "} and {@code \} with a backslash,
 * control and non-ASCII bytes as {@code \xhh}), so a client cannot forge log lines. The bytes
 * are those the client sent (fields and the request line as read), except for {@code %U}, the
 * decoded path, whose characters are logged as UTF-8.
 */
public final class AccessLogFormat implements AsyncLogWriter.LineFormat<AccessLogFormat.Exchange> {
    /**
     * One piece of a line: literal text (its UTF-8 bytes in {@code literal}), or a % code with its
     * argument. A switch on the code rather than a lambda per code keeps reading the configuration
     * free of class spinning.
     */
    /**
     * {@return every field named {@code name}, joined with ", ", or null for none} As httpd logs
     * a request field that came more than once (it merges them as it reads the head), and
     * {@code Set-Cookie} among the response's.
     */
    private static String joined(Headers h, String name) {
        return h.count(name) <= 1 ? h.first(name) : String.join(", ", h.all(name));
    }

    private record Item(char code, String arg, byte[] literal) {
        void append(LogLine line, Exchange x) {
            Request rq = x.request();
            switch (code) {
                case 0 -> line.bytes(literal);
                case 'a' -> line.ip(arg == null ? rq.remoteAddress() : RemoteIpRequest.connectionAddress(rq));
                case 'h' -> line.ip(arg == null ? rq.remoteAddress() : RemoteIpRequest.connectionAddress(rq));
                case 'A' -> line.ip(rq.localAddress());
                case 'b' -> {
                    long b = x.response().bodyBytesSent();
                    if (b <= 0) {
                        line.ascii('-');
                    } else {
                        line.number(b);
                    }
                }
                case 'B' -> line.number(Math.max(0, x.response().bodyBytesSent()));
                case 'D' -> line.number(x.nanos() / 1000);
                case 'T' -> line.number(x.nanos() / (arg.equals("ms") ? 1_000_000L : arg.equals("us") ? 1000L
                        : 1_000_000_000L));
                case 'H' -> line.text(rq.rawProtocol()); // as sent (httpd's r->protocol): HTTP/1.2, not 1.1
                case 'i' -> line.escapedBytes(joined(rq.headers(), arg));
                case 'o' -> line.escapedBytes(arg.equalsIgnoreCase("Set-Cookie")
                        ? joined(x.response().headers(), arg) : x.response().headers().first(arg));
                case 'I' -> line.number(Math.max(0, rq.bytesReceived()));
                case 'O' -> line.number(Math.max(0, x.response().bytesSent()));
                case 'm' -> line.escapedBytes(rq.method());
                case 'p' -> line.number(rq.localAddress().getPort());
                case 'q' -> {
                    if (rq.query() != null) {
                        line.ascii('?').escapedBytes(rq.query());
                    }
                }
                case 'r' -> line.escapedBytes(rq.method()).ascii(' ').escapedBytes(rq.rawTarget()).ascii(' ')
                        .text(rq.rawProtocol());
                case 's' -> line.number(x.status());
                case 't' -> line.bytes(ClfTime.bytes(x.startMillis()));
                case 'U' -> line.escaped(rq.path());
                case 'v', 'V' -> line.text(x.serverName() != null ? x.serverName() : "-");
                default -> throw new IllegalStateException("unchecked code %" + code);
            }
        }

        static Item literal(String text) {
            return new Item((char) 0, null, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * What one finished request gives the format.
     *
     * @param request the request
     * @param response the response (status and byte counts read after the handler returned)
     * @param status the final status
     * @param startMillis when the request arrived (wall clock)
     * @param nanos how long it took (0 when no format prints it)
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
            // Codes whose text never changes join the literal around them: fewer pieces per line.
            if (code == '%' || code == 'l' || code == 'u' || code == 'P') {
                literal.append(code == '%' ? "%" : code == 'P' ? Pid.TEXT : "-");
                continue;
            }
            if (!literal.isEmpty()) {
                items.add(Item.literal(literal.toString()));
                literal.setLength(0);
            }
            items.add(item(code, arg));
        }
        if (!literal.isEmpty()) {
            items.add(Item.literal(literal.toString()));
        }
        return new AccessLogFormat(items.toArray(new Item[0]));
    }

    /** Checks a code and its argument. */
    private static Item item(char code, String arg) {
        switch (code) {
            case 'a', 'h' -> {
                if (arg != null && !arg.equals("c")) {
                    throw new IllegalArgumentException("%{" + arg + "}" + code + ": only %" + code + " and %{c}" + code
                            + " are known");
                }
                return new Item(code, arg, null);
            }
            case 'A', 'b', 'B', 'D', 'H', 'I', 'O', 'm', 'p', 'q', 'r', 's', 'U', 'v', 'V' -> {
                return new Item(code, arg, null);
            }
            case 'i', 'o' -> {
                if (arg == null || arg.isEmpty()) {
                    throw new IllegalArgumentException("%" + code + " needs a header name: %{Name}" + code);
                }
                return new Item(code, arg, null);
            }
            case 'T' -> {
                String unit = arg == null ? "s" : arg.toLowerCase(Locale.ROOT);
                if (!unit.equals("s") && !unit.equals("ms") && !unit.equals("us")) {
                    throw new IllegalArgumentException("%{" + arg + "}T: the unit must be s, ms or us");
                }
                return new Item(code, unit, null);
            }
            case 't' -> {
                if (arg != null) {
                    throw new IllegalArgumentException("%{" + arg + "}t: custom time formats are not supported");
                }
                return new Item(code, null, null);
            }
            default -> throw new IllegalArgumentException("unrecognized LogFormat directive %" + code);
        }
    }

    /** Whether a line needs the request's duration ({@code %D}, {@code %T}). */
    public boolean timed() {
        for (Item it : items) {
            if (it.code() == 'D' || it.code() == 'T') {
                return true;
            }
        }
        return false;
    }

    /** Appends one line (without its newline) for a finished exchange. */
    @Override
    public void format(LogLine line, Exchange x) {
        for (Item it : items) {
            it.append(line, x);
        }
    }
}
