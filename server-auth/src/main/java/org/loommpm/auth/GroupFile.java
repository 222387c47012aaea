package org.loommpm.auth;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A group file ({@code AuthGroupFile}, mod_authz_groupfile): lines {@code group: user user ...},
 * {@code #} comments and blank lines skipped; a group may span several lines. Read again when it
 * changes ({@link WatchedFile}). Any thread.
 */
public final class GroupFile extends WatchedFile<Map<String, Set<String>>> {
    private GroupFile(Path file) throws AuthFileException {
        super(file);
    }

    /**
     * Reads a group file.
     *
     * @param file the file
     * @return the file, watched for changes
     * @throws AuthFileException when it cannot be read or a line has no {@code :}
     */
    public static GroupFile open(Path file) throws AuthFileException {
        return new GroupFile(file);
    }

    @Override
    Map<String, Set<String>> parse(List<String> lines, boolean strict) throws AuthFileException {
        Map<String, Set<String>> groupsOfUser = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = content(lines.get(i));
            if (l == null) {
                continue;
            }
            int colon = l.indexOf(':');
            if (colon <= 0) {
                var e = new AuthFileException(file(), i + 1, "a group line is 'group: user user ...'", null);
                if (strict) {
                    throw e;
                }
                skipped(e);
                continue;
            }
            String group = l.substring(0, colon);
            for (String user : l.substring(colon + 1).trim().split("[ \t]+")) {
                if (!user.isEmpty()) {
                    groupsOfUser.computeIfAbsent(user, u -> new HashSet<>()).add(group);
                }
            }
        }
        Map<String, Set<String>> frozen = new HashMap<>();
        groupsOfUser.forEach((u, g) -> frozen.put(u, Set.copyOf(g)));
        return Map.copyOf(frozen);
    }

    /**
     * {@return the groups {@code user} belongs to (empty for none), or null while the file cannot
     * be read (httpd answers 500)}
     *
     * @param user the authenticated user
     */
    public Set<String> groups(String user) {
        Map<String, Set<String>> m = current();
        return m == null ? null : m.getOrDefault(user, Set.of());
    }
}
