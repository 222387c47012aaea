package org.loommpm.cli.children;

/**
 * The supervisor-to-child protocol, one command per line on the child's stdin:
 *
 * <ul>
 *   <li>{@code drain finishing REASON} / {@code drain idle-killed REASON}: close the listeners (the
 *       kernel sends new connections to the other processes), finish the connections it has
 *       ({@code Connection: close}; idle keep-alive ones run out KeepAliveTimeout), exit 0. Sent
 *       to the old generation once the new one is ready, to a child that reached
 *       MaxConnectionsPerChild once its replacement is ready, and by {@code ChildPolicy dynamic}.</li>
 *   <li>{@code stop}: graceful stop (idle keep-alive connections closed now, in-flight requests
 *       finish within GracefulShutdownTimeout), exit 0.</li>
 *   <li>{@code ping N}: spamd's liveness ping. The child hands it to its engine as a worker task
 *       (through its worker pool, like a request), which writes {@code N} into the child's
 *       scoreboard record when it runs: a child whose workers are all stuck never answers, and the
 *       supervisor kills it after {@code ChildPingMisses} pings in a row (LM2011).</li>
 *   <li>end of input: the supervisor is gone (it died or was killed): stop as for {@code stop}, so
 *       no child outlives its supervisor.</li>
 * </ul>
 *
 * There is no "stop accepting but keep the listener" command: with SO_REUSEPORT the kernel keeps
 * routing new connections to a socket nobody accepts on, and they would wait there until it
 * closes (then be reset). Stopping accepting means closing the listener, which is {@code drain}.
 *
 * @param kind what to do
 * @param idle for DRAIN: retired by the dynamic policy (state IDLE_KILLED), else FINISHING
 * @param reason for DRAIN: why, shown on the status page and in the log
 * @param ping for PING: the ping's number (1, 2, 3 ...)
 */
public record Control(Kind kind, boolean idle, String reason, int ping) {
    /** The commands. */
    public enum Kind { DRAIN, STOP, PING }

    /** The stop command. */
    public static final Control STOP = new Control(Kind.STOP, false, "", 0);

    /** A liveness ping. */
    public static Control ping(int number) {
        return new Control(Kind.PING, false, "", number);
    }

    /** A drain command. */
    public static Control drain(boolean idle, String reason) {
        return new Control(Kind.DRAIN, idle, reason.replace('\n', ' '), 0);
    }

    /** The line sent (without its newline). */
    public String encode() {
        return switch (kind) {
            case STOP -> "stop";
            case DRAIN -> "drain " + (idle ? "idle-killed " : "finishing ") + reason;
            case PING -> "ping " + ping;
        };
    }

    /**
     * Parses a line.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Control decode(String line) {
        String l = line.strip();
        if (l.equals("stop")) {
            return STOP;
        }
        String[] p = l.split(" ", 3);
        if (p.length == 2 && p[0].equals("ping")) {
            try {
                return ping(Integer.parseInt(p[1]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad ping number in '" + l + "'");
            }
        }
        if (p.length >= 2 && p[0].equals("drain") && (p[1].equals("finishing") || p[1].equals("idle-killed"))) {
            return drain(p[1].equals("idle-killed"), p.length == 3 ? p[2] : "drain requested");
        }
        throw new IllegalArgumentException("unknown control command '" + l + "'");
    }
}
