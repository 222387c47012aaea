package org.loommpm.cli.access;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.TlsInfo;
import org.loommpm.auth.BasicAuth;
import org.loommpm.auth.BasicCredentials;
import org.loommpm.auth.LoginFailures;
import org.loommpm.staticfiles.internal.ErrorAnswer;

/**
 * Who may proceed, decided as httpd decides it (mod_authz_core, then mod_auth_basic and
 * mod_authn_file, then mod_authz_core again): the {@code Require} tree is asked first without a
 * user; granted goes on, denied is 403. Only when the answer is "denied unless a user logs in"
 * are Basic credentials read and checked (a missing or wrong one is 401 with the realm's
 * challenge), and the tree is asked again with the user: granted goes on (the user is in the
 * request's attributes under {@link BasicAuth#USER}), anything else is 401, or 403 with
 * {@code AuthzSendForbiddenOnFailure On}. What httpd answers 500 is 500 here too: {@code AuthType}
 * without any {@code Require}, a {@code Require} that needs a user without {@code AuthType Basic},
 * {@code AuthName} or {@code AuthUserFile}, and a password or group file that cannot be read.
 *
 * <p><b>Threads.</b> Any request thread; the failure counts are shared by one site's requests.
 */
public final class AccessCheck {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final LoginFailures failures = new LoginFailures();
    /** {@code ErrorDocument}, or null. */
    private final ErrorAnswer errors;

    /** @param errors what answers the errors ({@code ErrorDocument}), or null for the default texts */
    public AccessCheck(ErrorAnswer errors) {
        this.errors = errors;
    }

    /** {@return where failed logins are counted} */
    public LoginFailures failures() {
        return failures;
    }

    /**
     * Decides one request, answering it when it may not proceed.
     *
     * @param rule the merged {@code Require} of its sections
     * @param auth the merged authentication directives of its sections
     * @param path the request's normalized path (for the log)
     * @return whether the request may proceed (when not, it has been answered)
     */
    public boolean admit(AccessRule rule, AuthConfig auth, Request req, Response res, String path) throws IOException {
        if (rule == AccessRule.OPEN) {
            if (auth.isBasic()) {
                LOG.log(Level.ERROR, "LM3010 {0}: AuthType configured with no corresponding authorization directives", path);
                return answer(req, res, 500, "Internal Server Error", null);
            }
            return true;
        }
        InetAddress client = req.remoteAddress().getAddress();
        InetAddress local = rule.usesLocalAddress() ? req.localAddress().getAddress() : null;
        boolean certified = rule.usesClientCertificate() && certified(req);
        Authz.Result first = rule.decide(client, local, req.method(), null, certified);
        switch (first) {
            case GRANTED -> {
                return true;
            }
            case DENIED, NEUTRAL -> {
                LOG.log(Level.DEBUG, "LM1103 {0} denied to {1} by Require", path, req.remoteAddress());
                return answer(req, res, 403, "Forbidden", null);
            }
            case ERROR -> {
                return answer(req, res, 500, "Internal Server Error", null);
            }
            case DENIED_NO_USER -> { }
        }
        String problem = !auth.isBasic() ? "Require needs a user who logged in, and no AuthType Basic applies"
                : auth.realm() == null ? "AuthType Basic needs AuthName"
                : auth.users() == null ? "AuthType Basic needs AuthUserFile" : null;
        if (problem != null) {
            LOG.log(Level.ERROR, "LM3011 {0}: {1}", path, problem);
            return answer(req, res, 500, "Internal Server Error", null);
        }
        String challenge = BasicAuth.challenge(auth.realm());
        BasicCredentials c = BasicCredentials.parse(req.header("Authorization"));
        if (c == null) {
            return answer(req, res, 401, "Unauthorized", challenge);
        }
        switch (auth.users().check(c.user(), c.password())) {
            case UNAVAILABLE -> {
                LOG.log(Level.ERROR, "LM3012 {0}: the password file {1} cannot be read", path, auth.users().file());
                return answer(req, res, 500, "Internal Server Error", null);
            }
            case USER_NOT_FOUND -> {
                failures.failed(client, c.user(), path, "user not found");
                return answer(req, res, 401, "Unauthorized", challenge);
            }
            case PASSWORD_MISMATCH -> {
                failures.failed(client, c.user(), path, "password mismatch");
                return answer(req, res, 401, "Unauthorized", challenge);
            }
            case GRANTED -> { }
        }
        Authz.Result then = rule.decide(client, local, req.method(), new Login(c.user(), auth.groups()), certified);
        switch (then) {
            case GRANTED -> {
                req.attributes().put(BasicAuth.USER, c.user());
                return true;
            }
            case ERROR -> {
                LOG.log(Level.ERROR, "LM3012 {0}: the group file {1} cannot be read", path, auth.groups().file());
                return answer(req, res, 500, "Internal Server Error", null);
            }
            default -> {
                LOG.log(Level.INFO, "LM3013 user {0}: authorization failure for {1}", c.user(), path);
                return Boolean.TRUE.equals(auth.forbiddenOnFailure()) ? answer(req, res, 403, "Forbidden", null)
                        : answer(req, res, 401, "Unauthorized", challenge);
            }
        }
    }

    /** Whether the request came over TLS with a client certificate that verified (mod_ssl's SSL_CLIENT_VERIFY SUCCESS). */
    public static boolean certified(Request req) {
        return req.tls().map(TlsInfo::peerVerified).orElse(false);
    }

    private boolean answer(Request req, Response res, int status, String text, String challenge) throws IOException {
        if (challenge != null) {
            res.header("WWW-Authenticate", challenge);
        }
        try {
            if (errors != null && errors.answer(req, res, status)) {
                return false;
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        res.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        res.send((text + "\n").getBytes(StandardCharsets.UTF_8));
        return false;
    }
}
