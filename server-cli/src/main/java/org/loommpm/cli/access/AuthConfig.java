package org.loommpm.cli.access;

import org.loommpm.auth.GroupFile;
import org.loommpm.auth.PasswordFile;

/**
 * The authentication directives of one {@code <Location>}, each null when the section does not
 * set it: {@code AuthType}, {@code AuthName}, {@code AuthUserFile}, {@code AuthGroupFile},
 * {@code AuthzSendForbiddenOnFailure}. A request's settings are its matching sections' merged in
 * file order, a later section's directive replacing an earlier one's, as httpd merges them
 * ({@link #then}).
 *
 * @param basic {@code AuthType}: TRUE for Basic, FALSE for None, null when not set
 * @param realm {@code AuthName}
 * @param users {@code AuthUserFile}
 * @param groups {@code AuthGroupFile}
 * @param forbiddenOnFailure {@code AuthzSendForbiddenOnFailure}
 */
public record AuthConfig(Boolean basic, String realm, PasswordFile users, GroupFile groups, Boolean forbiddenOnFailure) {
    /** Nothing set. */
    public static final AuthConfig NONE = new AuthConfig(null, null, null, null, null);

    /** {@return these settings with a later section's on top} */
    public AuthConfig then(AuthConfig later) {
        if (later == null) {
            return this;
        }
        return new AuthConfig(later.basic != null ? later.basic : basic, later.realm != null ? later.realm : realm,
                later.users != null ? later.users : users, later.groups != null ? later.groups : groups,
                later.forbiddenOnFailure != null ? later.forbiddenOnFailure : forbiddenOnFailure);
    }

    /** {@return whether {@code AuthType Basic} applies} */
    public boolean isBasic() {
        return Boolean.TRUE.equals(basic);
    }
}
