package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.access.AuthConfig;

/** {@code AuthType} and the files, read into each {@code <Location>}; what is wrong stops -t at its file and line. */
class AuthDirectivesTest {
    private static final String APR1 = "$apr1$xjeY7NVz$k2Fn8dREua8I0FjFpZpum.";

    @TempDir
    Path dir;

    private List<LocationSettings> locations(String text) throws Exception {
        return ConfigFiles.parse(dir, text).site().locations();
    }

    private ConfigException refused(String text, int line, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigFiles.parse(dir, text), text);
        assertEquals(line, e.line(), e.report());
        assertTrue(e.getMessage().contains(message), "expected '" + message + "' in: " + e.report());
        return e;
    }

    @Test
    void sectionsKeepWhatTheySetAndShareAFile() throws Exception {
        Files.writeString(dir.resolve("htpasswd"), "alice:" + APR1 + "\n");
        Files.writeString(dir.resolve("groups"), "staff: alice\n");
        List<LocationSettings> l = locations("""
                <Location /a>
                    AuthType Basic
                    AuthName "Area A"
                    AuthUserFile %1$s/htpasswd
                    AuthGroupFile %1$s/groups
                    Require group staff
                </Location>
                <Location /a/b>
                    AuthName "Inner"
                    AuthUserFile %1$s/htpasswd
                    AuthzSendForbiddenOnFailure On
                </Location>
                <Location /c>
                    Require all granted
                </Location>
                """.formatted(dir));
        AuthConfig a = l.get(0).auth();
        assertTrue(a.isBasic());
        assertEquals("Area A", a.realm());
        AuthConfig merged = a.then(l.get(1).auth());
        assertEquals("Inner", merged.realm());
        assertTrue(merged.isBasic(), "AuthType inherited");
        assertSame(a.users(), l.get(1).auth().users(), "one file object per path");
        assertSame(a.groups(), merged.groups());
        assertEquals(Boolean.TRUE, merged.forbiddenOnFailure());
        assertNull(l.get(2).auth());
        assertEquals(Boolean.FALSE, locations("<Location /x>\nAuthType None\n</Location>\n").get(0).auth().basic());
    }

    @Test
    void whatIsWrongIsNamedWithItsFileAndLine() throws Exception {
        Files.writeString(dir.resolve("htpasswd"), "alice:" + APR1 + "\n\nbob:hunter2\n");
        refused("<Location /x>\nAuthUserFile " + dir.resolve("htpasswd") + "\n</Location>\n", 2,
                dir.resolve("htpasswd") + ":3: the password of user 'bob' is no hash htpasswd writes");
        refused("<Location /x>\nAuthUserFile " + dir.resolve("missing") + "\n</Location>\n", 2, "cannot be read");
        Files.writeString(dir.resolve("groups"), "staff alice\n");
        refused("<Location /x>\nAuthGroupFile " + dir.resolve("groups") + "\n</Location>\n", 2, "groups:1: a group line");
        refused("<Location /x>\nAuthType Digest\n</Location>\n", 2, "AuthType Digest is not available");
        refused("<Location /x>\nAuthType Kerberos\n</Location>\n", 2, "AuthType takes Basic or None");
        refused("<Location /x>\nAuthBasicProvider file dbm\n</Location>\n", 2, "only 'file'");
        refused("AuthType Basic\n", 1, "AuthType is only allowed within <Location> sections");
        refused("<Location /x>\n<RequireAll>\nAuthName x\n</RequireAll>\n</Location>\n", 3, "AuthName cannot occur within <RequireAll>");
    }
}
