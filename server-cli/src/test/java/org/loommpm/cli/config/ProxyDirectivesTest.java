package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.proxy.LbMethod;
import org.loommpm.proxy.Member;

/** The Proxy* directives: what they accept, their defaults, and the errors an operator sees. */
class ProxyDirectivesTest {
    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private String error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text)).getMessage();
    }

    @Test
    void defaultsAndServerLevelDirectives() throws Exception {
        assertNull(ProxySettings.of(parse("")));
        ProxySettings p = ProxySettings.of(parse("""
                ProxyPass /app/ http://127.0.0.1:9000/
                """));
        assertTrue(p.enabled());
        assertFalse(p.preserveHost);
        assertTrue(p.addHeaders);
        assertFalse(p.via);
        assertNull(p.timeout, "ProxyTimeout defaults to Timeout");
        p = ProxySettings.of(parse("""
                ProxyPass /app/static/ !
                ProxyPass /app/ http://127.0.0.1:9000/ retry=0 max=8 ttl=30 timeout=5 connectiontimeout=2
                ProxyPassReverse /app/ http://127.0.0.1:9000/
                ProxyPreserveHost On
                ProxyAddHeaders Off
                ProxyVia On
                ProxyTimeout 7
                <Location /loc/>
                    ProxyPass http://127.0.0.1:9001/
                    ProxyPassReverse http://127.0.0.1:9001/
                </Location>
                """));
        assertEquals(3, p.passes.size());
        assertNull(p.passes.get(0).target());
        assertEquals("/loc/", p.passes.get(2).path());
        assertTrue(p.passes.get(2).inLocation());
        assertEquals(2, p.reverses.size());
        assertTrue(p.preserveHost);
        assertFalse(p.addHeaders);
        assertTrue(p.via);
        assertEquals(Duration.ofSeconds(7), p.timeout);
    }

    @Test
    void balancerSectionMembersAndProxySet() throws Exception {
        ProxySettings p = ProxySettings.of(parse("""
                ProxyHCExpr ok234 {%{REQUEST_STATUS} =~ /^[234]/}
                <Proxy balancer://app>
                    BalancerMember http://127.0.0.1:9001/ loadfactor=3 route=n1 hcmethod=GET hcuri=/health hcinterval=5 hcexpr=ok234
                    BalancerMember http://127.0.0.1:9002/ route=n2 retry=10
                    BalancerMember http://127.0.0.1:9003/ status=+H
                    ProxySet lbmethod=bybusyness stickysession=JSESSIONID
                </Proxy>
                ProxyPass /app/ balancer://app/
                ProxyPassReverse /app/ balancer://app/
                """));
        assertEquals(3, p.balancers.get("app").members.size());
        Member m = p.member(p.balancers.get("app").members.get(0), 100).build();
        assertEquals(3, m.loadFactor());
        assertEquals("n1", m.route());
        assertEquals(Duration.ofSeconds(5), m.healthCheck().interval());
        assertTrue(m.healthCheck().expect().test(302));
        assertFalse(m.healthCheck().expect().test(503));
        assertTrue(p.member(p.balancers.get("app").members.get(2), 100).build().hotStandby());
        try (var running = p.start("front", Duration.ofSeconds(60), 64)) {
            assertEquals(1, running.routes().size());
            var b = running.routes().get(0).handler().balancer();
            assertEquals("JSESSIONID", b.stickySession());
            assertEquals(64, b.members().get(1).max(), "max defaults to ThreadsPerChild, as httpd");
            assertEquals(Duration.ofSeconds(10), b.members().get(1).retry());
        }
        assertEquals(LbMethod.BYBUSYNESS, LbMethod.valueOf("BYBUSYNESS"));
    }

    @Test
    void upgradeParameterAndWsUrls() throws Exception {
        ProxySettings p = ProxySettings.of(parse("""
                ProxyPass /ws/ http://127.0.0.1:9000/ upgrade=websocket retry=0
                ProxyPass /any/ http://127.0.0.1:9000/ upgrade=*
                ProxyPass /wstunnel/ ws://127.0.0.1:9000/
                ProxyPass /plain/ http://127.0.0.1:9000/
                <Location /loc/>
                    ProxyPass ws://127.0.0.1:9001/ upgrade=echo/1
                </Location>
                """));
        assertEquals("websocket", p.passes.get(0).upgrade());
        assertEquals(List.of("retry=0"), p.passes.get(0).params(), "upgrade= is the route's, not the member's");
        assertEquals("*", p.passes.get(1).upgrade());
        assertEquals("websocket", p.passes.get(2).upgrade(), "ws:// implies upgrade=websocket (mod_proxy_wstunnel)");
        assertEquals("http://127.0.0.1:9000/", p.passes.get(2).target());
        assertNull(p.passes.get(3).upgrade());
        assertEquals("echo/1", p.passes.get(4).upgrade());
        assertTrue(error("ProxyPass /ws/ http://b/ upgrade=").contains("upgrade= takes one protocol name"));
        assertTrue(error("ProxyPass /ws/ http://b/ upgrade=a,b").contains("upgrade= takes one protocol name"));
        assertTrue(error("ProxyPass /ws/ ! upgrade=websocket").contains("takes no parameters"));
        assertTrue(error("ProxyPass /ws/ wss://b/").contains("wss:// backends are not supported"));
    }

    @Test
    void cookieRulesReachTheRunningProxy() throws Exception {
        ProxySettings p = ProxySettings.of(parse("""
                ProxyPass /app/ http://127.0.0.1:9000/
                ProxyPassReverseCookiePath / /app/
                ProxyPassReverseCookieDomain backend.internal www.example.com
                """));
        assertEquals(1, p.cookiePaths.size());
        assertEquals(1, p.cookieDomains.size());
        try (var running = p.start("front", Duration.ofSeconds(60), 4)) {
            assertEquals("s=1; Path=/app/; Domain=www.example.com",
                    running.routes().get(0).handler().reverseMap().cookie("s=1; Path=/; Domain=backend.internal"));
        }
        assertTrue(error("ProxyPassReverseCookiePath /").contains("ProxyPassReverseCookiePath"));
        assertTrue(error("ProxyPassReverseCookieDomain a.b c;d").contains("cannot be a cookie attribute's value"));
    }

    @Test
    void errorsAreLocatedAndPrecise() {
        assertTrue(error("ProxyPass /app/ https://b/").contains("only http:// backends"), "no TLS backends");
        assertTrue(error("ProxyPass app/ http://b/").contains("must start with /"));
        assertTrue(error("ProxyPass /app/").contains("takes a path and a URL"));
        assertTrue(error("ProxyPass /app/ http://b/ bogus=1").contains("unknown or unsupported parameter 'bogus'"));
        assertTrue(error("ProxyPass /app/ http://b/ retry=soon").contains("duration"));
        assertTrue(error("ProxyPass /app/ balancer://none/").contains("has no BalancerMember"));
        assertTrue(error("BalancerMember http://b/").contains("only allowed within <Proxy>"));
        assertTrue(error("<Proxy balancer://x>\nBalancerMember http://b/ loadfactor=101\n</Proxy>").contains("between 1 and 100"));
        assertTrue(error("<Proxy balancer://x>\nBalancerMember http://b/ hcuri=/h\n</Proxy>").contains("need hcmethod"));
        assertTrue(error("<Proxy balancer://x>\nBalancerMember http://b/ hcmethod=GET hcexpr=nope\n</Proxy>")
                .contains("not defined by a ProxyHCExpr"));
        assertTrue(error("<Proxy balancer://x>\nProxySet lbmethod=random\n</Proxy>").contains("byrequests or bybusyness"));
        assertTrue(error("<Proxy balancer://x>\nProxySet forcerecovery=maybe\n</Proxy>").contains("forcerecovery must be On or Off"));
        assertTrue(error("<Proxy balancer://x>\nBalancerMember http://b/\n").contains("<Proxy> was not closed"));
        assertTrue(error("<Proxy http://fwd/>\n</Proxy>").contains("no forward proxy"));
        assertTrue(error("ProxyHCExpr x {%{REMOTE_ADDR} =~ /1/}").contains("only %{REQUEST_STATUS}"));
        assertTrue(error("<Location /a/>\nProxyPassReverse /a/ http://b/\n</Location>").contains("takes only the URL"));
    }

    /**
     * httpd keeps one worker per URL in a balancer (a second line shares it), so a repeated
     * BalancerMember never doubles a backend's share: refused here, naming the first line.
     */
    @Test
    void aDuplicateBalancerMemberIsRefused() {
        String e = error("<Proxy balancer://x>\nBalancerMember http://b:9000/app/\n"
                + "BalancerMember http://B:9000/app/ loadfactor=2\n</Proxy>");
        assertTrue(e.contains("http://B:9000/app/ is already a member of balancer://x (line 2)"), e);
        assertTrue(error("<Proxy balancer://x>\nBalancerMember http://b/\n</Proxy>\n<Proxy balancer://x>\n"
                + "BalancerMember http://b:80/\n</Proxy>").contains("already a member"), "reopened, default port");
    }

    @Test
    void aMismatchedTrailingSlashIsWarnedAbout() throws Exception {
        LoomConfig c = parse("ProxyPass /app http://127.0.0.1:9000/\n");
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("should both end in /")), c.warnings().toString());
    }
}
