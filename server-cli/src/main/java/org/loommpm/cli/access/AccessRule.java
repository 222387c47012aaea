package org.loommpm.cli.access;

import java.net.InetAddress;
import java.util.List;

/**
 * What the {@code Require} lines of one {@code <Location>} allow. As in httpd, several
 * {@code Require} lines are alternatives (an implicit {@code <RequireAny>}): the client is let
 * in if any line grants it.
 *
 * <p>{@code Require all denied} alone grants nothing: {@code all} false and no ranges.
 *
 * @param all {@code Require all granted} appeared
 * @param ranges the address blocks of every {@code Require ip}
 */
public record AccessRule(boolean all, List<IpRange> ranges) {
    /** No {@code Require} at all: everyone is let in. */
    public static final AccessRule OPEN = new AccessRule(true, List.of());

    /** Whether a client at {@code address} may proceed. */
    public boolean allows(InetAddress address) {
        if (all) {
            return true;
        }
        for (IpRange r : ranges) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
