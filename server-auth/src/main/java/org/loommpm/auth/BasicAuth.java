package org.loommpm.auth;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * HTTP Basic authentication (RFC 7617) as a filter, with mod_auth_basic's answers: no or wrong
 * credentials get 401 and {@code WWW-Authenticate: Basic realm="..."}; a user who logged in but is
 * not among those allowed gets 401 too (httpd's default; {@link Builder#forbiddenOnFailure} makes
 * it 403); a password or group file that cannot be read gets 500. The user who logged in is in
 * the request's {@link Request#attributes()} under {@link #USER} ({@link #user(Request)}).
 * <pre>{@code
 * router.filter(BasicAuth.builder()
 *         .realm("Staff only")
 *         .users(PasswordFile.open(Path.of("/etc/loom/htpasswd")))
 *         .build());
 * }</pre>
 * Checks are cheap after a user's first request ({@link PasswordFile}'s verified-password cache);
 * failed logins are counted per address and logged ({@link LoginFailures}). Use it over TLS only:
 * Basic credentials are sent in the clear on every request.
 */
public final class BasicAuth implements Filter {
    private static final System.Logger LOG = System.getLogger("org.loommpm.auth");
    /** The attribute the user who logged in is stored under (a String). */
    public static final String USER = "org.loommpm.auth.user";

    private final String challenge;
    private final PasswordFile users;
    private final GroupFile groups;
    private final Set<String> allowedUsers;
    private final Set<String> allowedGroups;
    private final boolean forbiddenOnFailure;
    private final LoginFailures failures;

    private BasicAuth(Builder b) {
        this.challenge = challenge(Objects.requireNonNull(b.realm, "realm"));
        this.users = Objects.requireNonNull(b.users, "users");
        this.groups = b.groups;
        this.allowedUsers = Set.copyOf(b.allowedUsers);
        this.allowedGroups = Set.copyOf(b.allowedGroups);
        this.forbiddenOnFailure = b.forbiddenOnFailure;
        this.failures = b.failures != null ? b.failures : new LoginFailures();
        if (!allowedGroups.isEmpty() && groups == null) {
            throw new IllegalArgumentException("allowGroups needs a group file (groups)");
        }
    }

    /** {@return a builder: a realm and a password file are required} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@return the user who logged in through a {@code BasicAuth} filter, or null}
     *
     * @param request the request
     */
    public static String user(Request request) {
        return request.attributes().get(USER) instanceof String s ? s : null;
    }

    /**
     * {@return the {@code WWW-Authenticate} value for a realm: {@code Basic realm="..."}, with
     * {@code "} and {@code \} escaped as RFC 9110's quoted-string wants}
     *
     * @param realm the realm ({@code AuthName})
     */
    public static String challenge(String realm) {
        return "Basic realm=\"" + realm.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        BasicCredentials c = BasicCredentials.parse(request.header("Authorization"));
        if (c == null) {
            unauthorized(response);
            return;
        }
        switch (users.check(c.user(), c.password())) {
            case UNAVAILABLE -> {
                unavailable(response, users);
                return;
            }
            case USER_NOT_FOUND, PASSWORD_MISMATCH -> {
                failures.failed(request.remoteAddress().getAddress(), c.user(), request.path(), "wrong user or password");
                unauthorized(response);
                return;
            }
            case GRANTED -> { }
        }
        if (!allowedUsers.isEmpty() || !allowedGroups.isEmpty()) {
            Set<String> of = allowedGroups.isEmpty() ? Set.of() : groups.groups(c.user());
            if (of == null) {
                unavailable(response, groups);
                return;
            }
            if (!allowedUsers.contains(c.user()) && of.stream().noneMatch(allowedGroups::contains)) {
                LOG.log(Level.INFO, "LM3006 user {0}: not allowed on {1}", c.user(), request.path());
                if (forbiddenOnFailure) {
                    response.status(403).header("Content-Type", "text/plain; charset=utf-8").send("Forbidden\n");
                } else {
                    unauthorized(response);
                }
                return;
            }
        }
        request.attributes().put(USER, c.user());
        next.handle(request, response);
    }

    private void unauthorized(Response response) throws java.io.IOException {
        response.status(401).header("WWW-Authenticate", challenge)
                .header("Content-Type", "text/plain; charset=utf-8").send("Unauthorized\n");
    }

    private static void unavailable(Response response, WatchedFile<?> file) throws java.io.IOException {
        LOG.log(Level.ERROR, "LM3007 {0} cannot be read: answering 500", file.file());
        response.status(500).header("Content-Type", "text/plain; charset=utf-8").send("Internal Server Error\n");
    }

    /** Builds a {@link BasicAuth}. */
    public static final class Builder {
        private String realm;
        private PasswordFile users;
        private GroupFile groups;
        private final java.util.ArrayList<String> allowedUsers = new java.util.ArrayList<>();
        private final java.util.ArrayList<String> allowedGroups = new java.util.ArrayList<>();
        private boolean forbiddenOnFailure;
        private LoginFailures failures;

        private Builder() {
        }

        /**
         * Sets the realm.
         *
         * @param realm the realm the browser shows ({@code AuthName})
         * @return this
         */
        public Builder realm(String realm) { this.realm = realm; return this; }

        /**
         * Sets the password file.
         *
         * @param users the htpasswd file ({@code AuthUserFile})
         * @return this
         */
        public Builder users(PasswordFile users) { this.users = users; return this; }

        /**
         * Sets the group file.
         *
         * @param groups the group file ({@code AuthGroupFile})
         * @return this
         */
        public Builder groups(GroupFile groups) { this.groups = groups; return this; }

        /**
         * Only these users ({@code Require user}); with {@link #allowGroups} either lets in.
         * Without both, any user of the file ({@code Require valid-user}).
         *
         * @param names user names
         * @return this
         */
        public Builder allowUsers(String... names) { allowedUsers.addAll(List.of(names)); return this; }

        /**
         * Only members of these groups ({@code Require group}).
         *
         * @param names groups of the group file whose members are let in
         * @return this
         */
        public Builder allowGroups(String... names) { allowedGroups.addAll(List.of(names)); return this; }

        /**
         * Whether a user not allowed gets 403 rather than 401 ({@code AuthzSendForbiddenOnFailure}).
         *
         * @param forbidden true for 403
         * @return this
         */
        public Builder forbiddenOnFailure(boolean forbidden) { this.forbiddenOnFailure = forbidden; return this; }

        /**
         * Where failed logins are counted (one instance may be shared by several filters).
         *
         * @param failures the counts
         * @return this
         */
        public Builder failures(LoginFailures failures) { this.failures = failures; return this; }

        /**
         * Builds the filter.
         *
         * @return the filter
         * @throws IllegalArgumentException when groups are allowed without a group file
         */
        public BasicAuth build() { return new BasicAuth(this); }
    }
}
