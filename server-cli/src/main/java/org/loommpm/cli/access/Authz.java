package org.loommpm.cli.access;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One node of a prebuilt authorization tree, evaluated as mod_authz_core evaluates its
 * sections: a provider ({@code Require all|ip|local|method}) answers granted or denied; a
 * container combines its children's answers, skipping neutral ones:
 * {@code <RequireAll>} is denied by the first denied child, else granted if some child
 * granted; {@code <RequireAny>} is granted by the first granted child, else denied if some
 * child denied; a container whose children are all neutral is neutral. A negation
 * ({@code Require not}, and {@code <RequireNone>}, a negated {@code <RequireAny>}) turns
 * granted into denied and denied into neutral: it can refuse, never grant.
 *
 * <p>The providers that need a user ({@code Require valid-user|user|group}) answer
 * {@link Result#DENIED_NO_USER} while nobody has logged in; the containers combine that answer
 * as mod_authz_core does (it is "denied, but a user may change it"), and the caller then asks for
 * credentials and evaluates again with the {@link Login} (see {@link AccessCheck}).
 *
 * <p>Built once from the configuration; {@link #check} walks it without allocating.
 */
public abstract sealed class Authz {
    /** A node's answer; only {@link #GRANTED} at the top lets a request in. */
    public enum Result {
        /** The node allows the request. */
        GRANTED,
        /** The node refuses it. */
        DENIED,
        /** The node has no say (a negation that did not match, or a container of such). */
        NEUTRAL,
        /** The node refuses unless a user logs in who may change its answer. */
        DENIED_NO_USER,
        /** The node cannot decide (a group file that cannot be read): the request gets 500. */
        ERROR
    }

    /**
     * The methods httpd's registry knows, case-sensitive as httpd compares them; {@code HEAD}
     * shares {@code GET}'s number there, so either name allows both.
     */
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "PUT", "POST", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK",
            "VERSION-CONTROL", "CHECKOUT", "UNCHECKOUT", "CHECKIN", "UPDATE", "LABEL", "REPORT", "MKWORKSPACE",
            "MKACTIVITY", "BASELINE-CONTROL", "MERGE");
    private static final IpRange LOOPBACK_V4 = IpRange.parse("127.0.0.0/8");
    private static final IpRange LOOPBACK_V6 = IpRange.parse("::1");

    private final boolean negate;

    private Authz(boolean negate) {
        this.negate = negate;
    }

    /** {@code Require [not] all granted|denied}. */
    public static Authz all(boolean granted, boolean negate) {
        return new All(granted, negate);
    }

    /** {@code Require [not] ip range ...}: granted when the client lies in one of the blocks. */
    public static Authz ip(List<IpRange> ranges, boolean negate) {
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("Require ip takes at least one address");
        }
        return new Ip(ranges.toArray(new IpRange[0]), negate);
    }

    /**
     * {@code Require [not] local}, mod_authz_host's definition: the client is on a loopback
     * address ({@code 127.0.0.0/8}, {@code ::1}) or is the connection's own local address.
     */
    public static Authz local(boolean negate) {
        return new Local(negate);
    }

    /**
     * {@code Require [not] method name ...}: granted when the request's method is listed.
     *
     * @throws IllegalArgumentException for a name httpd's method registry does not know
     */
    public static Authz method(List<String> names, boolean negate) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("Require method takes at least one method");
        }
        Set<String> allowed = new HashSet<>();
        for (String n : names) {
            if (!KNOWN_METHODS.contains(n)) {
                String upper = n.toUpperCase(Locale.ROOT);
                throw new IllegalArgumentException("Invalid Method '" + n + "'"
                        + (KNOWN_METHODS.contains(upper) ? " (method names are case-sensitive: " + upper + ")"
                                : " (the methods httpd registers: GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, "
                                        + "TRACE, PATCH and WebDAV's)"));
            }
            allowed.add(n);
            if (n.equals("GET") || n.equals("HEAD")) {
                allowed.add("GET");
                allowed.add("HEAD");
            }
        }
        return new Method(Set.copyOf(allowed), names, negate);
    }

    /** {@code Require [not] valid-user}: granted for any user who logged in. */
    public static Authz validUser(boolean negate) {
        return new User(null, negate);
    }

    /** {@code Require [not] user name ...}: granted when the user who logged in is listed. */
    public static Authz user(List<String> names, boolean negate) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("Require user takes at least one user name");
        }
        return new User(List.copyOf(names), negate);
    }

    /** {@code Require [not] group name ...}: granted when the user is in one of the groups ({@code AuthGroupFile}). */
    public static Authz group(List<String> names, boolean negate) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("Require group takes at least one group name");
        }
        return new Group(List.copyOf(names), negate);
    }

    /** {@code Require [not] ssl-verify-client} (mod_ssl): granted when the client's certificate verified. */
    public static Authz sslVerifyClient(boolean negate) {
        return new SslVerifyClient(negate);
    }

    /** The authorization containers. */
    public enum Container {
        /** {@code <RequireAll>}: every child that has a say must grant, and one must. */
        ALL("<RequireAll>"),
        /** {@code <RequireAny>}: one child must grant. */
        ANY("<RequireAny>"),
        /** {@code <RequireNone>}: a negated {@code <RequireAny>}; no child may grant. */
        NONE("<RequireNone>");

        private final String tag;

        Container(String tag) {
            this.tag = tag;
        }

        /** The opening tag as httpd spells it in messages: {@code <RequireAll>}. */
        public String tag() {
            return tag;
        }
    }

    /**
     * A container over its children (at least one).
     *
     * @throws IllegalArgumentException for no children
     */
    public static Authz section(Container kind, List<Authz> children) {
        if (children.isEmpty()) {
            throw new IllegalArgumentException(kind.tag() + " directive contains no authorization directives");
        }
        return new Section(kind, children.toArray(new Authz[0]));
    }

    /** Whether this node is negated: {@code Require not ...} or {@code <RequireNone>}. */
    public boolean negated() {
        return negate;
    }

    /**
     * This node's answer for one request.
     *
     * @param client the client's address bytes ({@link InetAddress#getAddress()}); may be null
     *     when {@link #usesAddressBytes()} is false
     * @param clientAddress the client's address
     * @param local the connection's local address; may be null when {@link #usesLocalAddress()} is false
     * @param method the request's method, as sent
     * @param login the user who logged in, or null before anyone has
     * @param certified whether the connection's client certificate verified ({@code Require ssl-verify-client})
     */
    public final Result check(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
        Result r = evaluate(client, clientAddress, local, method, login, certified);
        if (!negate) {
            return r;
        }
        // A negation that matched refuses; one that did not match has no say: it cannot grant.
        return switch (r) {
            case GRANTED -> Result.DENIED;
            case DENIED, DENIED_NO_USER -> Result.NEUTRAL;
            case NEUTRAL, ERROR -> r;
        };
    }

    abstract Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified);

    /** Whether some node reads the client's address bytes. */
    public abstract boolean usesAddressBytes();

    /** Whether some node reads the connection's local address. */
    public abstract boolean usesLocalAddress();

    /** Whether some node asks whether the client certificate verified ({@code Require ssl-verify-client}). */
    public boolean usesClientCertificate() {
        return false;
    }

    /** The provider's {@code Require} line, or the container's tag with its children. */
    @Override
    public abstract String toString();

    final String notPrefix() {
        return negate ? "not " : "";
    }

    private static Result of(boolean granted) {
        return granted ? Result.GRANTED : Result.DENIED;
    }

    private static final class All extends Authz {
        private final boolean granted;

        All(boolean granted, boolean negate) {
            super(negate);
            this.granted = granted;
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            return of(granted);
        }

        @Override public boolean usesAddressBytes() { return false; }
        @Override public boolean usesLocalAddress() { return false; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + "all " + (granted ? "granted" : "denied");
        }
    }

    private static final class Ip extends Authz {
        private final IpRange[] ranges;

        Ip(IpRange[] ranges, boolean negate) {
            super(negate);
            this.ranges = ranges;
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            for (IpRange r : ranges) {
                if (r.contains(client)) {
                    return Result.GRANTED;
                }
            }
            return Result.DENIED;
        }

        @Override public boolean usesAddressBytes() { return true; }
        @Override public boolean usesLocalAddress() { return false; }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("Require ").append(notPrefix()).append("ip");
            for (IpRange r : ranges) {
                b.append(' ').append(r);
            }
            return b.toString();
        }
    }

    private static final class Local extends Authz {
        Local(boolean negate) {
            super(negate);
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            return of(LOOPBACK_V4.contains(client) || LOOPBACK_V6.contains(client) || clientAddress.equals(local));
        }

        @Override public boolean usesAddressBytes() { return true; }
        @Override public boolean usesLocalAddress() { return true; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + "local";
        }
    }

    private static final class Method extends Authz {
        private final Set<String> allowed;
        private final List<String> written;

        Method(Set<String> allowed, List<String> written, boolean negate) {
            super(negate);
            this.allowed = allowed;
            this.written = List.copyOf(written);
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            return of(allowed.contains(method));
        }

        @Override public boolean usesAddressBytes() { return false; }
        @Override public boolean usesLocalAddress() { return false; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + "method " + String.join(" ", written);
        }
    }

    private static final class SslVerifyClient extends Authz {
        SslVerifyClient(boolean negate) {
            super(negate);
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            return of(certified);
        }

        @Override public boolean usesAddressBytes() { return false; }
        @Override public boolean usesLocalAddress() { return false; }
        @Override public boolean usesClientCertificate() { return true; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + "ssl-verify-client";
        }
    }

    /** {@code valid-user} (no names) or {@code user name ...}. */
    private static final class User extends Authz {
        private final List<String> names;

        User(List<String> names, boolean negate) {
            super(negate);
            this.names = names;
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            if (login == null) {
                return Result.DENIED_NO_USER;
            }
            return of(names == null || names.contains(login.user()));
        }

        @Override public boolean usesAddressBytes() { return false; }
        @Override public boolean usesLocalAddress() { return false; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + (names == null ? "valid-user" : "user " + String.join(" ", names));
        }
    }

    /** {@code group name ...}: the groups come from the request's {@code AuthGroupFile}. */
    private static final class Group extends Authz {
        private final List<String> names;

        Group(List<String> names, boolean negate) {
            super(negate);
            this.names = names;
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            if (login == null) {
                return Result.DENIED_NO_USER;
            }
            Set<String> groups = login.groups();
            if (groups == null) {
                return Result.ERROR;
            }
            for (String n : names) {
                if (groups.contains(n)) {
                    return Result.GRANTED;
                }
            }
            return Result.DENIED;
        }

        @Override public boolean usesAddressBytes() { return false; }
        @Override public boolean usesLocalAddress() { return false; }

        @Override
        public String toString() {
            return "Require " + notPrefix() + "group " + String.join(" ", names);
        }
    }

    private static final class Section extends Authz {
        private final Container kind;
        private final boolean all;
        private final Authz[] children;
        private final boolean bytes;
        private final boolean local;
        private final boolean certificate;

        Section(Container kind, Authz[] children) {
            super(kind == Container.NONE);
            this.kind = kind;
            this.all = kind == Container.ALL;
            this.children = children;
            boolean b = false;
            boolean l = false;
            boolean cert = false;
            for (Authz c : children) {
                b |= c.usesAddressBytes();
                l |= c.usesLocalAddress();
                cert |= c.usesClientCertificate();
            }
            this.bytes = b;
            this.local = l;
            this.certificate = cert;
        }

        @Override
        Result evaluate(byte[] client, InetAddress clientAddress, InetAddress local, String method, Login login, boolean certified) {
            Result result = Result.NEUTRAL;
            for (Authz c : children) {
                Result r = c.check(client, clientAddress, local, method, login, certified);
                if (r == Result.ERROR) {
                    return r;
                }
                if (r == Result.NEUTRAL) {
                    continue;
                }
                // mod_authz_core's apply_authz_sections: DENIED_NO_USER where a user may change the answer.
                if (all) {
                    if (r == Result.DENIED) {
                        return r;
                    }
                    if (r == Result.DENIED_NO_USER || result == Result.NEUTRAL) {
                        result = r;
                    }
                } else {
                    if (r == Result.GRANTED) {
                        return r;
                    }
                    if (r == Result.DENIED_NO_USER && result == Result.DENIED || result == Result.NEUTRAL) {
                        result = r;
                    }
                }
            }
            return result;
        }

        @Override public boolean usesAddressBytes() { return bytes; }
        @Override public boolean usesLocalAddress() { return local; }
        @Override public boolean usesClientCertificate() { return certificate; }

        @Override
        public String toString() {
            List<String> parts = new ArrayList<>();
            for (Authz c : children) {
                parts.add(c.toString());
            }
            return kind.tag() + parts;
        }
    }
}
