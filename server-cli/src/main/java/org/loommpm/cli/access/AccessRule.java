package org.loommpm.cli.access;

import java.net.InetAddress;

/**
 * What the {@code Require} lines and authorization containers of one {@code <Location>} allow:
 * the tree under the section's implicit {@code <RequireAny>} (several {@code Require} lines are
 * alternatives, as in httpd). A request is let in only when the tree answers
 * {@link Authz.Result#GRANTED}; denied and neutral both mean 403, as mod_authz_core decides
 * (401 once a user has logged in: {@link AccessCheck}).
 */
public final class AccessRule {
    /** No {@code Require} at all: everyone is let in. */
    public static final AccessRule OPEN = new AccessRule(Authz.all(true, false));

    private final Authz root;
    private final boolean bytes;
    private final boolean local;

    /** @param root the section's tree, built and checked by the configuration parser */
    public AccessRule(Authz root) {
        this.root = root;
        this.bytes = root.usesAddressBytes();
        this.local = root.usesLocalAddress();
    }

    /**
     * Whether {@link #allows} reads the connection's local address ({@code Require local}):
     * the caller looks it up only then.
     */
    public boolean usesLocalAddress() {
        return local;
    }

    /**
     * Whether a request may proceed. The address bytes are copied out of {@code client} once,
     * and only when some {@code Require ip} or {@code local} needs them.
     *
     * @param client the client's address (mod_remoteip's useragent address when it applies)
     * @param localAddress the connection's local address; may be null unless {@link #usesLocalAddress()}
     * @param method the request's method
     */
    public boolean allows(InetAddress client, InetAddress localAddress, String method) {
        return decide(client, localAddress, method, null, false) == Authz.Result.GRANTED;
    }

    /** Whether {@link #decide} needs to know if the client's certificate verified: the caller looks it up only then. */
    public boolean usesClientCertificate() {
        return root.usesClientCertificate();
    }

    /**
     * The tree's answer, {@link Authz.Result#DENIED_NO_USER} included (before anyone logged in).
     *
     * @param client the client's address
     * @param localAddress the connection's local address; may be null unless {@link #usesLocalAddress()}
     * @param method the request's method
     * @param login the user who logged in, or null
     * @param certified whether the client's certificate verified (only read when {@link #usesClientCertificate()})
     */
    public Authz.Result decide(InetAddress client, InetAddress localAddress, String method, Login login, boolean certified) {
        return root.check(bytes ? client.getAddress() : null, client, localAddress, method, login, certified);
    }

    /** The tree, in httpd's spelling (for messages and tests). */
    @Override
    public String toString() {
        return root.toString();
    }
}
