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
 */
public record Control(Kind kind, boolean idle, String reason) {
    /** The commands. */
    public enum Kind { DRAIN, STOP }

    /** The stop command. */
    public static final Control STOP = new Control(Kind.STOP, false, "");

    /** A drain command. */
    public static Control drain(boolean idle, String reason) {
        return new Control(Kind.DRAIN, idle, reason.replace('\n', ' '));
    }

    /** The line sent (without its newline). */
    public String encode() {
        return switch (kind) {
            case STOP -> "stop";
            case DRAIN -> "drain " + (idle ? "idle-killed " : "finishing ") + reason;
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
        if (p.length >= 2 && p[0].equals("drain") && (p[1].equals("finishing") || p[1].equals("idle-killed"))) {
            return drain(p[1].equals("idle-killed"), p.length == 3 ? p[2] : "drain requested");
        }
        throw new IllegalArgumentException("unknown control command '" + l + "'");
    }
}
