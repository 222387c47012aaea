package org.loommpm.proxy;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * An active health check of a balancer member, in the spirit of mod_proxy_hcheck: every
 * {@code hcinterval} the member is probed with {@code hcmethod} on {@code hcuri}; after
 * {@code hcfails} consecutive failures it is taken out of rotation, after {@code hcpasses}
 * consecutive passes it is put back. A probe passes when the member answers with a status the
 * {@code expect} predicate accepts (httpd: {@code hcexpr}; without one, 2xx and 3xx pass) within
 * the member's connect and read timeouts.
 *
 * @param method {@code TCP} (connect only), or an HTTP method: {@code GET}, {@code HEAD},
 *     {@code OPTIONS} are sent as HTTP/1.0 requests, {@code GET11}, {@code HEAD11},
 *     {@code OPTIONS11} as HTTP/1.1 ones (httpd's names)
 * @param uri the path probed, appended to the member's URL path (httpd's {@code hcuri}); empty for
 *     the member's own path
 * @param interval time between probes (httpd's {@code hcinterval}, default 30 s)
 * @param passes consecutive passes that bring a failed member back (default 1)
 * @param fails consecutive failures that take a member out (default 1)
 * @param expect which statuses pass
 * @param expectText how {@code expect} was written, for messages
 */
public record HealthCheck(String method, String uri, Duration interval, int passes, int fails,
                          IntPredicate expect, String expectText) {
    /** httpd's default interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
    /** 2xx and 3xx pass: httpd's rule when no {@code hcexpr} is given. */
    public static final IntPredicate DEFAULT_EXPECT = s -> s >= 200 && s < 400;

    /** Validates and normalizes the method name. */
    public HealthCheck {
        Objects.requireNonNull(method, "method");
        method = method.toUpperCase(Locale.ROOT);
        if (!java.util.Set.of("TCP", "GET", "HEAD", "OPTIONS", "GET11", "HEAD11", "OPTIONS11").contains(method)) {
            throw new IllegalArgumentException("hcmethod must be TCP, GET, HEAD, OPTIONS, GET11, HEAD11 or OPTIONS11, got "
                    + method);
        }
        uri = uri == null ? "" : uri;
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("hcinterval must be positive");
        }
        if (passes < 1 || fails < 1) {
            throw new IllegalArgumentException("hcpasses and hcfails must be at least 1");
        }
        Objects.requireNonNull(expect, "expect");
    }

    /**
     * A check with httpd's defaults for everything but the method and path.
     *
     * @param method the request method, e.g. {@code GET} or {@code HEAD}
     * @param uri the path asked, e.g. {@code /health}
     * @return the check
     */
    public static HealthCheck of(String method, String uri) {
        return new HealthCheck(method, uri, DEFAULT_INTERVAL, 1, 1, DEFAULT_EXPECT, "2xx or 3xx");
    }

    /**
     * This check with another interval.
     *
     * @param every the time between two checks of a member
     * @return the new check
     */
    public HealthCheck interval(Duration every) {
        return new HealthCheck(method, uri, every, passes, fails, expect, expectText);
    }

    /**
     * This check with other pass and fail counts.
     *
     * @param passesToRecover passes in a row that bring an ejected member back
     * @param failsToEject failures in a row that eject a member
     * @return the new check
     */
    public HealthCheck thresholds(int passesToRecover, int failsToEject) {
        return new HealthCheck(method, uri, interval, passesToRecover, failsToEject, expect, expectText);
    }

    /**
     * This check passing on statuses {@code accept} accepts (described by {@code text}).
     *
     * @param accept the statuses that pass
     * @param text how the statuses are described in logs
     * @return the new check
     */
    public HealthCheck expect(IntPredicate accept, String text) {
        return new HealthCheck(method, uri, interval, passes, fails, accept, text);
    }
}
