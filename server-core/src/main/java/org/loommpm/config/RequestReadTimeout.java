package org.loommpm.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * httpd's {@code RequestReadTimeout} (mod_reqtimeout): how long a client may take to send a
 * request head and a request body, each a {@link Stage}, plus the TLS handshake.
 *
 * <p>Default: {@code handshake=0 header=20-40,MinRate=500 body=20,MinRate=500}, httpd 2.4's. A
 * stage whose timeout is 0 is off (its reads are then bounded by {@code Timeout} alone).
 * {@code handshake=0} means the TLS handshake counts against the header stage's first timeout,
 * as in httpd.
 *
 * @param handshake {@code handshake=}: the TLS handshake must end within this from the accept; 0
 *                  = no separate stage (the header stage's first timeout bounds it)
 * @param header    {@code header=}: the request head
 * @param body      {@code body=}: the request body
 */
public record RequestReadTimeout(Duration handshake, Stage header, Stage body) {
    /** httpd 2.4's default, {@code handshake=0 header=20-40,MinRate=500 body=20,MinRate=500}. */
    public static final RequestReadTimeout DEFAULT = new RequestReadTimeout(Duration.ZERO,
            new Stage(Duration.ofSeconds(20), Duration.ofSeconds(40), 500),
            new Stage(Duration.ofSeconds(20), Duration.ZERO, 500));

    /** Validates. */
    public RequestReadTimeout {
        Objects.requireNonNull(handshake, "handshake");
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(body, "body");
        if (handshake.isNegative()) {
            throw new IllegalArgumentException("RequestReadTimeout handshake= must not be negative, got " + handshake);
        }
    }

    /**
     * A copy with {@code header=} replaced.
     *
     * @param s the header stage
     * @return the copy
     */
    public RequestReadTimeout withHeader(Stage s) {
        return new RequestReadTimeout(handshake, s, body);
    }

    /**
     * A copy with {@code body=} replaced.
     *
     * @param s the body stage
     * @return the copy
     */
    public RequestReadTimeout withBody(Stage s) {
        return new RequestReadTimeout(handshake, header, s);
    }

    /**
     * A copy with {@code handshake=} replaced.
     *
     * @param d the handshake timeout (0: the header stage's)
     * @return the copy
     */
    public RequestReadTimeout withHandshake(Duration d) {
        return new RequestReadTimeout(d, header, body);
    }

    @Override
    public String toString() {
        return "handshake=" + text(handshake) + " header=" + header + " body=" + body;
    }

    /**
     * One stage: {@code timeout[-maxtimeout][,MinRate=rate]}. The client has {@code timeout} from
     * the stage's start; each byte received extends that by {@code 1/minRate} s (1 s per
     * {@code minRate} bytes), never beyond {@code maxTimeout} from the start when one is given.
     *
     * @param timeout    the first timeout; 0 = stage off
     * @param maxTimeout the most the rate may extend it to; 0 = no maximum (only with a rate:
     *                   then the rate alone bounds the stage)
     * @param minRate    bytes per second that earn one more second; 0 = no extension
     */
    public record Stage(Duration timeout, Duration maxTimeout, int minRate) {
        private static final long MAX_BYTES = Long.MAX_VALUE / 1_000_000_000L;
        private static final long MAX_EXTENSION = Duration.ofDays(365).toNanos();

        /** A stage that is off. */
        public static final Stage OFF = new Stage(Duration.ZERO, Duration.ZERO, 0);

        /** Validates as httpd does: a range needs a rate, its maximum above its minimum. */
        public Stage {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(maxTimeout, "maxTimeout");
            if (timeout.isNegative() || maxTimeout.isNegative() || minRate < 0) {
                throw new IllegalArgumentException("RequestReadTimeout: negative value in " + timeout + "-"
                        + maxTimeout + ",MinRate=" + minRate);
            }
            if (!maxTimeout.isZero() && minRate == 0) {
                throw new IllegalArgumentException("RequestReadTimeout: a timeout range needs MinRate");
            }
            if (!maxTimeout.isZero() && maxTimeout.compareTo(timeout) <= 0) {
                throw new IllegalArgumentException("RequestReadTimeout: the maximum timeout must be above the"
                        + " first one, got " + timeout.toSeconds() + "-" + maxTimeout.toSeconds());
            }
            if (timeout.isZero() && (minRate != 0 || !maxTimeout.isZero())) {
                throw new IllegalArgumentException("RequestReadTimeout: a stage set to 0 (off) takes no range or MinRate");
            }
        }

        /**
         * A fixed timeout without a rate (the whole stage within {@code d}).
         *
         * @param d the timeout (0: the stage is off)
         * @return the stage
         */
        public static Stage of(Duration d) {
            return new Stage(d, Duration.ZERO, 0);
        }

        /**
         * Parses {@code timeout[-maxtimeout][,MinRate=rate]} (seconds; {@code MinRate} in bytes per
         * second, case-insensitive), as written after {@code header=} or {@code body=}.
         *
         * @throws IllegalArgumentException naming what is wrong
         * @param spec the text after {@code header=} or {@code body=}
         * @return the stage
         */
        public static Stage parse(String spec) {
            String times = spec;
            int rate = 0;
            int comma = spec.indexOf(',');
            if (comma >= 0) {
                times = spec.substring(0, comma);
                String opt = spec.substring(comma + 1);
                String prefix = "minrate=";
                if (!opt.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                    throw new IllegalArgumentException("RequestReadTimeout: expected MinRate=rate after ',' in '" + spec + "'");
                }
                rate = (int) number(opt.substring(prefix.length()), spec);
                if (rate == 0) {
                    throw new IllegalArgumentException("RequestReadTimeout: MinRate must be at least 1 in '" + spec + "'");
                }
            }
            int dash = times.indexOf('-');
            long first = number(dash < 0 ? times : times.substring(0, dash), spec);
            long max = dash < 0 ? 0 : number(times.substring(dash + 1), spec);
            return new Stage(Duration.ofSeconds(first), Duration.ofSeconds(max), rate);
        }

        private static long number(String s, String spec) {
            try {
                long v = Long.parseLong(s.trim());
                if (v < 0 || v > Integer.MAX_VALUE) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("RequestReadTimeout: '" + s + "' is not a number of seconds or"
                        + " bytes in '" + spec + "'");
            }
        }

        /** {@return whether the stage applies (its timeout is not 0)} */
        public boolean enabled() {
            return !timeout.isZero();
        }

        /**
         * The stage's deadline ({@link System#nanoTime()} scale) for a client that started it at
         * {@code startNanos} and has sent {@code bytes} since: the first timeout, plus one second
         * per {@code minRate} bytes, capped at the maximum.
         *
         * @param startNanos when the stage started, on {@link System#nanoTime()}'s clock
         * @param bytes the bytes the client sent since
         * @return the deadline, on the same clock
         */
        public long deadline(long startNanos, long bytes) {
            // Capped at a year so the sum cannot overflow, however many bytes a stage without a maximum sees.
            long extra = minRate == 0 ? 0 : Math.min(Math.min(bytes, MAX_BYTES) * 1_000_000_000L / minRate, MAX_EXTENSION);
            long deadline = startNanos + timeout.toNanos() + extra;
            if (!maxTimeout.isZero()) {
                deadline = Math.min(deadline, startNanos + maxTimeout.toNanos());
            }
            return deadline;
        }

        @Override
        public String toString() {
            if (!enabled()) {
                return "0";
            }
            return text(timeout) + (maxTimeout.isZero() ? "" : "-" + text(maxTimeout))
                    + (minRate == 0 ? "" : ",MinRate=" + minRate);
        }
    }

    /** Seconds as httpd writes them; milliseconds when not whole (values set through the builder). */
    static String text(Duration d) {
        return d.toMillisPart() == 0 ? Long.toString(d.toSeconds()) : d.toMillis() + "ms";
    }
}
