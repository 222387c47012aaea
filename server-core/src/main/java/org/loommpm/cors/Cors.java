package org.loommpm.cors;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * A filter speaking the CORS protocol (Fetch standard, "CORS protocol"): which other origins'
 * pages may call these routes from a browser, with which methods and request headers, which
 * response headers their scripts may read, and whether with credentials (cookies, HTTP
 * authentication, client certificates).
 *
 * <pre>{@code
 * router.filter(Cors.builder()
 *         .allowOrigins("https://app.example.com", "https://*.example.com")
 *         .allowMethods("GET", "POST", "PUT", "DELETE")
 *         .allowHeaders("Content-Type", "Authorization")
 *         .exposeHeaders("Location")
 *         .allowCredentials(true)
 *         .maxAge(Duration.ofMinutes(10))
 *         .build());
 * }</pre>
 *
 * <p><b>What it does, per request.</b>
 * <ul>
 *   <li>No {@code Origin}: not a CORS request. It reaches the handler unchanged and gets no CORS
 *       field; only {@code Vary: Origin}, when the answer depends on the origin (every
 *       configuration but any origin without credentials), so that a shared cache never hands
 *       it to a cross-origin request (Fetch, "CORS protocol and HTTP caches").
 *   <li>A preflight ({@code OPTIONS} with {@code Origin} and
 *       {@code Access-Control-Request-Method}) is answered here; the handler never sees it. When
 *       the origin, the method and every header of {@code Access-Control-Request-Headers} are
 *       allowed: {@code 204} with {@code Access-Control-Allow-Origin}, {@code -Allow-Methods},
 *       {@code -Allow-Headers} (the requested ones), {@code -Allow-Credentials} and
 *       {@code -Max-Age} as configured. Otherwise {@code 403} without any of them, with a short
 *       text naming what was refused, and a DEBUG line (LM2770 origin, LM2771 method, LM2772
 *       header): the browser would fail the call either way, and a 403 shows why in its
 *       network panel and in the log, where a 204 without the fields would not. Either answer
 *       carries {@code Vary: Origin, Access-Control-Request-Method,
 *       Access-Control-Request-Headers}.
 *   <li>Any other request with an allowed {@code Origin}: the handler runs, and its response
 *       carries {@code Access-Control-Allow-Origin} (the origin itself, or {@code *} for any
 *       origin without credentials), {@code Access-Control-Allow-Credentials: true} when
 *       configured, {@code Access-Control-Expose-Headers}, and {@code Vary: Origin}. The fields
 *       are set before the handler runs, so a streamed response has them too, and they stay on
 *       an error the server answers for the handler (a thrown {@code HttpException}). A handler
 *       that varies by more adds to {@code Vary} ({@code response.headers().add("Vary", ...)}):
 *       {@code response.header("Vary", ...)} would replace the filter's {@code Origin}.
 *   <li>Any other request with an origin not allowed: the handler runs and the response gets no
 *       CORS field (only {@code Vary: Origin}): the browser keeps a cross-origin page from
 *       reading it. It is not refused here, since browsers send {@code Origin} on same-origin
 *       {@code POST}s too. A CORS policy is not access control: a non-browser client sends
 *       what it likes.
 * </ul>
 *
 * <p><b>Credentials.</b> With {@link Builder#allowCredentials(boolean)} the origin is always
 * echoed, never {@code *} (browsers refuse {@code *} with credentials), even for
 * {@link Builder#allowAnyOrigin()}; the opaque origin {@code null} (sandboxed frames, local
 * files) is then allowed only when listed explicitly, since echoing it would let any sandboxed
 * page read credentialed answers.
 *
 * <p>The filter never blocks ({@link InvocationType#NON_BLOCKING}): non-blocking routes stay
 * non-blocking under it. Immutable and thread-safe; one instance serves any number of routers.
 */
public final class Cors implements Filter {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cors");
    private static final String VARY_PREFLIGHT = "Access-Control-Request-Method, Access-Control-Request-Headers";

    private final List<OriginPattern> origins;
    private final boolean anyOrigin;
    private final List<String> methods;
    private final String allowMethods;
    /** Lowercase; empty with {@link #anyHeader}. */
    private final Set<String> headers;
    private final boolean anyHeader;
    private final String exposeHeaders;
    private final boolean credentials;
    private final String maxAge;
    /** Whether the response depends on the request's Origin (all but any origin without credentials). */
    private final boolean varyOrigin;

    private Cors(Builder b) {
        this.origins = List.copyOf(b.origins);
        this.anyOrigin = b.anyOrigin;
        this.methods = List.copyOf(b.methods);
        this.allowMethods = String.join(", ", methods);
        this.headers = Set.copyOf(b.headers);
        this.anyHeader = b.anyHeader;
        this.exposeHeaders = b.exposeHeaders.isEmpty() ? null : String.join(", ", b.exposeHeaders);
        this.credentials = b.credentials;
        this.maxAge = b.maxAge == null ? null : Long.toString(b.maxAge.toSeconds());
        this.varyOrigin = !anyOrigin || credentials;
    }

    /** {@return a builder: no origin allowed until one is given; methods GET, HEAD, POST} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the CORS protocol around {@code next}; see the class comment.
     *
     * @param request the request
     * @param response the response
     * @param next the rest of the chain, not called for a preflight
     * @throws Exception what {@code next} throws
     */
    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        Headers fields = request.headers();
        String origin = fields.count("Origin") == 1 ? fields.first("Origin").strip() : null;
        boolean hasOrigin = fields.contains("Origin");
        if (hasOrigin && request.method().equals("OPTIONS") && fields.contains("Access-Control-Request-Method")) {
            preflight(request, response, origin);
            return;
        }
        if (varyOrigin) {
            vary(response, "Origin");
        }
        String allowed = hasOrigin ? allowedOrigin(origin) : null;
        if (allowed != null) {
            response.header("Access-Control-Allow-Origin", allowed);
            if (credentials) {
                response.header("Access-Control-Allow-Credentials", "true");
            }
            if (exposeHeaders != null) {
                response.header("Access-Control-Expose-Headers", exposeHeaders);
            }
        }
        next.handle(request, response);
    }

    private void preflight(Request request, Response response, String origin) throws Exception {
        vary(response, varyOrigin ? "Origin, " + VARY_PREFLIGHT : VARY_PREFLIGHT);
        String allowed = allowedOrigin(origin);
        if (allowed == null) {
            LOG.log(Level.DEBUG, "LM2770 CORS preflight refused (403): origin not allowed: {0}",
                    shown(request.header("Origin")));
            refuse(response, "origin not allowed");
            return;
        }
        String method = request.header("Access-Control-Request-Method").strip();
        if (!methods.contains(method)) {
            LOG.log(Level.DEBUG, "LM2771 CORS preflight refused (403): method not allowed: {0} from {1}",
                    shown(method), origin);
            refuse(response, "method not allowed");
            return;
        }
        List<String> requested = requestedHeaders(request.headers().all("Access-Control-Request-Headers"));
        for (String h : requested) {
            if (!anyHeader && !headers.contains(h.toLowerCase(Locale.ROOT))) {
                LOG.log(Level.DEBUG, "LM2772 CORS preflight refused (403): request header not allowed: {0} from {1}",
                        shown(h), origin);
                refuse(response, "request header not allowed");
                return;
            }
        }
        response.status(204);
        response.header("Access-Control-Allow-Origin", allowed);
        if (credentials) {
            response.header("Access-Control-Allow-Credentials", "true");
        }
        response.header("Access-Control-Allow-Methods", allowMethods);
        if (!requested.isEmpty()) {
            // The requested names, each checked: with credentials a "*" would be taken literally.
            response.header("Access-Control-Allow-Headers", String.join(", ", requested));
        }
        if (maxAge != null) {
            response.header("Access-Control-Max-Age", maxAge);
        }
        response.send(new byte[0]);
    }

    private static String shown(String value) {
        return value == null ? "(none)" : value.length() > 200 ? value.substring(0, 200) + "..." : value;
    }

    private static void refuse(Response response, String what) throws Exception {
        response.status(403).header("Content-Type", "text/plain; charset=UTF-8");
        response.send(("CORS preflight refused: " + what + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The Access-Control-Allow-Origin value for a request's origin, or null when it is not allowed. */
    private String allowedOrigin(String origin) {
        if (origin == null || origin.isEmpty()) {
            return null; // no Origin, or several: a browser sends exactly one
        }
        for (OriginPattern p : origins) {
            if (p.matches(origin)) {
                return origin;
            }
        }
        if (anyOrigin) {
            if (!credentials) {
                return "*";
            }
            return origin.equals("null") ? null : origin;
        }
        return null;
    }

    /** The names of {@code Access-Control-Request-Headers} (all its lines), as sent. */
    private static List<String> requestedHeaders(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            for (String h : line.split(",")) {
                String name = h.strip();
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    /** Adds {@code tokens} to the response's Vary unless it already lists them or is {@code *}. */
    private static void vary(Response response, String tokens) {
        Headers h = response.headers();
        if (h.hasToken("Vary", "*")) {
            return;
        }
        StringBuilder missing = new StringBuilder();
        for (String t : tokens.split(", ")) {
            if (!h.hasToken("Vary", t)) {
                missing.append(missing.isEmpty() ? "" : ", ").append(t);
            }
        }
        if (!missing.isEmpty()) {
            h.add("Vary", missing.toString());
        }
    }

    /** {@return {@link InvocationType#NON_BLOCKING}: no I/O of its own but a preflight's empty answer} */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /** What a {@link Cors} filter allows. Not thread-safe; {@link #build()} copies it. */
    public static final class Builder {
        private final List<OriginPattern> origins = new ArrayList<>();
        private boolean anyOrigin;
        private final Set<String> methods = new LinkedHashSet<>(List.of("GET", "HEAD", "POST"));
        private final Set<String> headers = new LinkedHashSet<>();
        private boolean anyHeader;
        private final Set<String> exposeHeaders = new LinkedHashSet<>();
        private boolean credentials;
        private Duration maxAge;

        private Builder() {
        }

        /**
         * Allows origins, added to those given before: exact ({@code https://app.example.com},
         * {@code http://localhost:5173}) or with a wildcard standing for one or more leftmost
         * host labels ({@code https://*.example.com}: not {@code https://example.com} itself,
         * list it too). Scheme and host compare without regard to case; the port must match.
         * {@code null} allows the opaque origin.
         *
         * @param origins origins as a browser sends them: {@code scheme://host[:port]}
         * @return this builder
         * @throws IllegalArgumentException for a value no browser sends (a path, a trailing
         *     slash, no scheme, a wildcard elsewhere than the first host label)
         */
        public Builder allowOrigins(String... origins) {
            for (String o : origins) {
                this.origins.add(OriginPattern.of(o));
            }
            return this;
        }

        /**
         * Allows every origin: {@code Access-Control-Allow-Origin: *}, or the origin echoed when
         * credentials are allowed (see the class comment).
         *
         * @return this builder
         */
        public Builder allowAnyOrigin() {
            this.anyOrigin = true;
            return this;
        }

        /**
         * The methods a preflight may ask for, replacing the default {@code GET, HEAD, POST};
         * sent as {@code Access-Control-Allow-Methods}. Case-sensitive, as methods are.
         *
         * @param methods method tokens
         * @return this builder
         */
        public Builder allowMethods(String... methods) {
            this.methods.clear();
            for (String m : methods) {
                this.methods.add(checkToken(m));
            }
            return this;
        }

        /**
         * Request headers a preflight may ask for ({@code Access-Control-Request-Headers}), added
         * to those given before; case-insensitive. None by default: only the CORS-safelisted
         * ones, which browsers do not ask for, are sent.
         *
         * @param names header names, e.g. {@code Content-Type} (for a JSON body), {@code Authorization}
         * @return this builder
         */
        public Builder allowHeaders(String... names) {
            for (String n : names) {
                headers.add(checkToken(n).toLowerCase(Locale.ROOT));
            }
            return this;
        }

        /**
         * Allows whatever request headers a preflight asks for; they are echoed in
         * {@code Access-Control-Allow-Headers} ({@code *} would not cover {@code Authorization},
         * nor anything with credentials).
         *
         * @return this builder
         */
        public Builder allowAnyHeader() {
            this.anyHeader = true;
            return this;
        }

        /**
         * Response headers the calling script may read beyond the CORS-safelisted ones
         * ({@code Access-Control-Expose-Headers}), added to those given before.
         *
         * @param names header names, e.g. {@code Location}, {@code ETag}
         * @return this builder
         */
        public Builder exposeHeaders(String... names) {
            for (String n : names) {
                exposeHeaders.add(n.equals("*") ? n : checkToken(n));
            }
            return this;
        }

        /**
         * Whether calls may carry credentials: {@code Access-Control-Allow-Credentials: true},
         * and the origin echoed rather than {@code *}. Off by default.
         *
         * @param allow whether to allow credentials
         * @return this builder
         */
        public Builder allowCredentials(boolean allow) {
            this.credentials = allow;
            return this;
        }

        /**
         * How long a browser may keep a preflight's answer ({@code Access-Control-Max-Age}, whole
         * seconds); none by default (browsers then keep it 5 s; they cap it, Chromium at 2 h).
         *
         * @param maxAge zero or more
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder maxAge(Duration maxAge) {
            if (maxAge.isNegative()) {
                throw new IllegalArgumentException("negative max-age: " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        /**
         * {@return the filter}
         *
         * @throws IllegalStateException if no origin was allowed (nothing would ever pass)
         */
        public Cors build() {
            if (origins.isEmpty() && !anyOrigin) {
                throw new IllegalStateException("no origin allowed: call allowOrigins(...) or allowAnyOrigin()");
            }
            return new Cors(this);
        }

        private static String checkToken(String s) {
            if (s.isEmpty()) {
                throw new IllegalArgumentException("empty name");
            }
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
                if (!ok) {
                    throw new IllegalArgumentException("not a token: '" + s + "'");
                }
            }
            return s;
        }
    }
}
