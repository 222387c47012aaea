package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.access.AccessRule;

/**
 * mod_authz_core's configuration inside {@code <Location>}: every accepted form of
 * {@code Require} and the containers, read into the rule it means, and every refused one,
 * with httpd's message where httpd has one, located at its file and line.
 */
class AuthzDirectivesTest {
    @TempDir
    Path dir;

    /** The rule of the only {@code <Location /x>}, whose body is {@code body}. */
    private AccessRule rule(String body) throws Exception {
        List<LocationSettings> l = ConfigFiles.parse(dir, "<Location /x>\n" + body + "</Location>\n").site().locations();
        assertEquals(1, l.size());
        return l.get(0).require();
    }

    private static boolean allows(AccessRule r, String client, String method) throws Exception {
        return r.allows(InetAddress.getByName(client), InetAddress.getByName("192.0.2.100"), method);
    }

    /** Asserts that {@code text} is refused at {@code line} of loom.conf with a message containing {@code message}. */
    private void refused(String text, int line, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigFiles.parse(dir, text), text);
        assertEquals(dir.resolve("loom.conf").toString(), e.source(), e.report());
        assertEquals(line, e.line(), e.report());
        assertTrue(e.getMessage().contains(message), "expected '" + message + "' in: " + e.report());
    }

    @Test
    void requireLinesStayAlternativesAndASectionWithoutThemInherits() throws Exception {
        AccessRule r = rule("Require ip 10.0.0.0/8\nRequire method POST\n");
        assertTrue(allows(r, "10.1.1.1", "GET"));
        assertTrue(allows(r, "192.0.2.1", "POST"));
        assertFalse(allows(r, "192.0.2.1", "GET"));
        assertTrue(allows(rule("Require all granted\n"), "192.0.2.1", "GET"));
        assertFalse(allows(rule("Require all denied\n"), "127.0.0.1", "GET"));
        assertTrue(allows(rule("REQUIRE IP 10.0.0.0/8\n"), "10.0.0.1", "GET"), "names in any case, as before");
        assertNull(rule("SetHandler health\n"), "no Require: the earlier sections' rule applies");
    }

    @Test
    void requireLocal() throws Exception {
        AccessRule r = rule("Require local\n");
        assertTrue(r.usesLocalAddress());
        assertTrue(allows(r, "127.0.0.1", "GET"));
        assertTrue(allows(r, "127.200.0.1", "GET"));
        assertTrue(allows(r, "::1", "GET"));
        assertTrue(allows(r, "192.0.2.100", "GET"), "the connection's own address");
        assertFalse(allows(r, "192.0.2.101", "GET"));
        assertFalse(rule("Require ip 10.0.0.0/8\n").usesLocalAddress(), "only Require local looks the address up");
    }

    @Test
    void requireMethod() throws Exception {
        AccessRule r = rule("Require method GET POST\n");
        assertTrue(allows(r, "192.0.2.1", "GET"));
        assertTrue(allows(r, "192.0.2.1", "HEAD"), "httpd gives HEAD the number of GET");
        assertTrue(allows(r, "192.0.2.1", "POST"));
        assertFalse(allows(r, "192.0.2.1", "PUT"));
        assertFalse(allows(r, "192.0.2.1", "post"), "method names are case-sensitive");
        assertTrue(allows(rule("Require method HEAD\n"), "192.0.2.1", "GET"));
        assertTrue(allows(rule("Require method PROPFIND MKCOL VERSION-CONTROL\n"), "192.0.2.1", "MKCOL"));
    }

    /** The classic "everyone except this block", and its nested variants. */
    @Test
    void requireNotInsideRequireAll() throws Exception {
        AccessRule r = rule("""
                <RequireAll>
                    Require all granted
                    Require not ip 10.0.0.0/8 192.0.2.0/28
                </RequireAll>
                """);
        assertTrue(allows(r, "192.0.2.200", "GET"));
        assertFalse(allows(r, "10.2.3.4", "GET"));
        assertFalse(allows(r, "192.0.2.5", "GET"));
        AccessRule neutral = rule("""
                <RequireAll>
                    Require ip 10.0.0.0/8
                    Require not all denied
                </RequireAll>
                """);
        assertTrue(allows(neutral, "10.0.0.1", "GET"), "a negation that does not match has no say");
        assertFalse(allows(neutral, "192.0.2.1", "GET"));
    }

    @Test
    void nestedContainers() throws Exception {
        AccessRule r = rule("""
                <RequireAny>
                    Require ip 198.51.100.0/24
                    <RequireAll>
                        Require local
                        Require method GET POST
                        <RequireNone>
                            Require ip 127.0.0.2
                            <RequireAll>
                                Require ip 127.0.0.3
                                Require method POST
                            </RequireAll>
                        </RequireNone>
                    </RequireAll>
                </RequireAny>
                """);
        assertTrue(allows(r, "198.51.100.9", "DELETE"));
        assertTrue(allows(r, "127.0.0.1", "GET"));
        assertFalse(allows(r, "127.0.0.1", "PUT"));
        assertFalse(allows(r, "127.0.0.2", "GET"));
        assertTrue(allows(r, "127.0.0.3", "GET"));
        assertFalse(allows(r, "127.0.0.3", "POST"));
        assertFalse(allows(r, "192.0.2.1", "GET"));
        // As httpd, a <RequireAny> in the section's own alternatives is merged into them.
        assertEquals("<RequireAny>[Require ip 198.51.100.0/24, <RequireAll>[Require local, Require method GET POST, "
                + "<RequireNone>[Require ip 127.0.0.2/32, <RequireAll>[Require ip 127.0.0.3/32, Require method POST]]]]",
                r.toString());
    }

    /**
     * httpd merges a container into its parent of the same kind before it checks for negations
     * alone, so an inner {@code <RequireAll>} of only {@code Require not} is fine when the outer
     * one has a positive line.
     */
    @Test
    void aContainerJoinsItsParentOfTheSameKind() throws Exception {
        AccessRule r = rule("""
                <requireall>
                    Require all granted
                    <RequireAll>
                        require NOT ip 10.0.0.0/8
                    </RequireAll>
                </REQUIREALL>
                """);
        assertEquals("<RequireAll>[Require all granted, Require not ip 10.0.0.0/8]", r.toString());
        assertFalse(allows(r, "10.0.0.1", "GET"));
        assertTrue(allows(r, "192.0.2.1", "GET"));
        AccessRule any = rule("<RequireAny>\nRequire ip 10.0.0.0/8\n</RequireAny>\nRequire local\n");
        assertEquals("<RequireAny>[Require ip 10.0.0.0/8, Require local]", any.toString());
        AccessRule none = rule("""
                <RequireAll>
                    Require all granted
                    <RequireNone>
                        <RequireAny>
                            Require ip 10.0.0.0/8
                        </RequireAny>
                    </RequireNone>
                </RequireAll>
                """);
        assertEquals("<RequireAll>[Require all granted, <RequireNone>[Require ip 10.0.0.0/8]]", none.toString());
    }

    @Test
    void negationsWhereTheyCanHaveNoEffect() {
        refused("<Location /x>\nRequire not ip 10.0.0.0/8\n</Location>\n", 2,
                "negative Require directive has no effect in <RequireAny> directive");
        refused("<Location /x>\n<RequireAny>\nRequire all granted\nRequire not ip 10.0.0.0/8\n</RequireAny>\n</Location>\n", 4,
                "negative Require directive has no effect in <RequireAny> directive");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\n<RequireNone>\nRequire not local\n</RequireNone>\n"
                + "</RequireAll>\n</Location>\n", 5, "negative Require directive has no effect in <RequireNone> directive");
        refused("<Location /x>\n<RequireNone>\nRequire ip 10.0.0.0/8\n</RequireNone>\n</Location>\n", 2,
                "<RequireNone> directive has no effect in <RequireAny> directive");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\n<RequireNone>\nRequire local\n<RequireNone>\n"
                + "Require ip 10.0.0.0/8\n</RequireNone>\n</RequireNone>\n</RequireAll>\n</Location>\n", 6,
                "<RequireNone> directive has no effect in <RequireNone> directive");
        refused("<Location /x>\n\n<RequireAll>\nRequire not ip 10.0.0.0/8\n</RequireAll>\n</Location>\n", 3,
                "<RequireAll> directive contains only negative authorization directives");
        refused("<Location /x>\n<RequireAll>\n<RequireNone>\nRequire local\n</RequireNone>\nRequire not method GET\n"
                + "</RequireAll>\n</Location>\n", 2, "<RequireAll> directive contains only negative authorization directives");
        // Merged into the outer <RequireAll>, which has nothing positive either: reported at the outer one.
        refused("<Location /x>\n<RequireAll>\nRequire not local\n<RequireAll>\nRequire not ip 10.0.0.0/8\n</RequireAll>\n"
                + "</RequireAll>\n</Location>\n", 2, "<RequireAll> directive contains only negative authorization directives");
    }

    @Test
    void malformedContainers() {
        refused("<Location /x>\n<RequireAny>\n</RequireAny>\n</Location>\n", 2,
                "<RequireAny> directive contains no authorization directives");
        refused("ServerName a\n<RequireAll>\nRequire all granted\n</RequireAll>\n", 2,
                "<RequireAll> is only allowed within <Location> sections");
        refused("<Location /x>\n<RequireAll 1>\nRequire all granted\n</RequireAll>\n</Location>\n", 2,
                "<RequireAll> directive doesn't take additional arguments");
        refused("<Location /x>\nRequire all granted\n</RequireNone>\n</Location>\n", 3,
                "Expected </Location> but saw </RequireNone>");
        refused("</RequireAny>\n", 1, "</RequireAny> without matching <RequireAny> section");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\n</RequireAny>\n</Location>\n", 4,
                "Expected </RequireAll> but saw </RequireAny>");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\n</RequireAll x>\n</Location>\n", 4,
                "</RequireAll> takes no arguments");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\n</Location>\n", 4,
                "Expected </RequireAll> but saw </Location>");
        refused("<Location /x>\n<RequireAny>\n<RequireAll>\nRequire all granted\n", 3, "<RequireAll> was not closed.");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\nSetHandler health\n</RequireAll>\n</Location>\n", 4,
                "SetHandler cannot occur within <RequireAll> section");
        refused("<Location /x>\n<RequireAny>\n<Location /y>\n</Location>\n</RequireAny>\n</Location>\n", 3,
                "<Location> cannot occur within <Location> section");
    }

    @Test
    void malformedRequireLines() {
        refused("<Location /x>\nRequire\n</Location>\n", 2, "Require takes at least 1 argument(s)");
        refused("<Location /x>\nRequire not\n</Location>\n", 2, "Require not needs a provider");
        refused("<Location /x>\nRequire all\n</Location>\n", 2, "Require all takes one argument: granted or denied");
        refused("<Location /x>\nRequire all maybe\n</Location>\n", 2, "Require all takes granted or denied, got 'maybe'");
        refused("<Location /x>\nRequire ip\n</Location>\n", 2, "Require ip takes at least one address");
        refused("<Location /x>\nRequire ip 10.0.0.300\n</Location>\n", 2, "Require ip: not an IP address");
        refused("<Location /x>\nRequire local 127.0.0.1\n</Location>\n", 2, "Require local takes no arguments");
        refused("<Location /x>\nRequire method\n</Location>\n", 2, "Require method takes at least one method");
        refused("<Location /x>\nRequire method GET get\n</Location>\n", 2,
                "Require method: Invalid Method 'get' (method names are case-sensitive: GET)");
        refused("<Location /x>\nRequire method FETCH\n</Location>\n", 2, "Require method: Invalid Method 'FETCH'");
        refused("<Location /x>\nRequire bogus\n</Location>\n", 2,
                "Require: unknown provider 'bogus' (this server knows all, ip, local, method)");
        refused("Require all granted\n", 1, "Require is only allowed within <Location> sections");
    }

    /** Providers httpd has that need DNS, an environment, expressions or a user source other than files: refused, saying why. */
    @Test
    void providersThisServerDoesNotHave() {
        refused("<Location /x>\nRequire host example.com\n</Location>\n", 2,
                "Require host needs a reverse and a forward DNS lookup");
        refused("<Location /x>\n<RequireAll>\nRequire all granted\nRequire not host .example.com\n</RequireAll>\n</Location>\n",
                4, "this server does no DNS lookups");
        refused("<Location /x>\nRequire forward-dns www.example.com\n</Location>\n", 2,
                "Require forward-dns needs a DNS lookup of the name");
        refused("<Location /x>\nRequire env let_me_in\n</Location>\n", 2, "Require env tests environment variables");
        refused("<Location /x>\nRequire expr \"%{REMOTE_ADDR} == '10.0.0.1'\"\n</Location>\n", 2,
                "Require expr needs httpd's expression language");
        refused("<Location /x>\nRequire ldap-group cn=admins\n</Location>\n", 2, "needs a user source this server does not have");
        refused("<Location /x>\nRequire valid-user alice\n</Location>\n", 2, "Require valid-user takes no arguments");
        refused("<Location /x>\nRequire user\n</Location>\n", 2, "Require user takes at least one user name");
    }
}
