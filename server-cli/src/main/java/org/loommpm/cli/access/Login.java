package org.loommpm.cli.access;

import java.util.Set;
import org.loommpm.auth.GroupFile;

/**
 * The user who logged in for one request, and where {@code Require group} looks up their groups.
 *
 * @param user the user name
 * @param groupFile the request's {@code AuthGroupFile}, or null when none applies
 */
public record Login(String user, GroupFile groupFile) {
    /** {@return the user's groups: empty without a group file, null while it cannot be read} */
    public Set<String> groups() {
        return groupFile == null ? Set.of() : groupFile.groups(user);
    }
}
