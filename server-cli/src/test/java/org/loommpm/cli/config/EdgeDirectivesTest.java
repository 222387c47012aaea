package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.remoteip.RemoteIpSettings;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;
import org.loommpm.config.ProxyProtocolSettings;

/** The PROXY protocol, mod_remoteip and compression directives: values, defaults and errors. */
class EdgeDirectivesTest {
    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private String error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text)).getMessage();
    }

    @Test
    void proxyProtocolOnAListenerOrEverywhere() throws Exception {
        ProxyProtocolSettings none = parse("Listen 127.0.0.1:9101").engine().proxyProtocol();
        assertFalse(none.enabled());
        assertEquals(Duration.ofSeconds(5), none.headerTimeout());
        ProxyProtocolSettings one = parse("""
                Listen 127.0.0.1:9101 proxy-protocol
                Listen 127.0.0.1:9102
                RemoteIPProxyProtocolTimeout 2
                RemoteIPProxyProtocolExceptions 10.0.5.0/24 192.0.2.9
                """).engine().proxyProtocol();
        assertEquals(Set.of(new InetSocketAddress("127.0.0.1", 9101)), one.listen());
        assertFalse(one.appliesTo(new InetSocketAddress("127.0.0.1", 9102)));
        assertEquals(Duration.ofSeconds(2), one.headerTimeout());
        assertTrue(one.exceptions().test(InetAddress.getByName("10.0.5.77")));
        assertTrue(one.exceptions().test(InetAddress.getByName("192.0.2.9")));
        assertFalse(one.exceptions().test(InetAddress.getByName("10.0.6.1")));
        assertTrue(parse("Listen 127.0.0.1:9101\nRemoteIPProxyProtocol On").engine().proxyProtocol()
                .appliesTo(new InetSocketAddress("127.0.0.1", 9101)));
        assertTrue(error("Listen 9101 proxy").contains("protocol 'proxy' is not supported"));
        assertTrue(error("Listen 9101 https http").contains("not supported here"));
        assertTrue(error("Listen 9101 proxy-protocol proxy-protocol").contains("not supported"));
        assertTrue(error("RemoteIPProxyProtocolExceptions lb.example.com").contains("no host names"));
        assertTrue(error("RemoteIPProxyProtocol maybe").contains("On or Off"));
    }

    @Test
    void remoteIpHeaderAndProxies() throws Exception {
        LoomConfig c = parse("""
                RemoteIPHeader X-Forwarded-For
                RemoteIPInternalProxy 10.0.0.0/8
                RemoteIPTrustedProxy 198.51.100.0/24 2001:db8::/32
                RemoteIPProxiesHeader X-Forwarded-By
                """);
        RemoteIpSettings r = (RemoteIpSettings) c.extensions().get(RemoteIpSettings.KEY);
        assertEquals("X-Forwarded-For", r.header());
        assertEquals("X-Forwarded-By", r.proxiesHeader());
        assertEquals(3, r.proxies().size());
        assertTrue(r.proxies().get(0).internal());
        assertFalse(r.proxies().get(1).internal());
        assertNull(parse("").extensions().get(RemoteIpSettings.KEY));
        Files.writeString(dir.resolve("lbs.txt"), "# our balancers\n10.1.0.0/16 10.2.0.1\n\n192.0.2.7  # the old one\n");
        RemoteIpSettings listed = (RemoteIpSettings) parse("RemoteIPHeader X-Forwarded-For\nRemoteIPInternalProxyList lbs.txt")
                .extensions().get(RemoteIpSettings.KEY);
        assertEquals(3, listed.proxies().size());
        assertTrue(listed.proxies().get(2).internal());
        assertTrue(listed.proxies().get(2).range().contains(InetAddress.getByName("192.0.2.7")));
        assertTrue(error("RemoteIPTrustedProxyList nosuch.txt").contains("could not read"));
        assertTrue(error("RemoteIPHeader X:Forwarded").contains("not a header field name"));
        assertTrue(error("RemoteIPTrustedProxy proxy.example.com").contains("no host names"));
        assertTrue(error("LogFormat \"%{x}a\" n").contains("%{x}a"));
    }

    @Test
    void compressionFiltersAndLevels() throws Exception {
        LoomConfig c = parse("""
                AddOutputFilterByType BROTLI_COMPRESS;DEFLATE text/html application/json
                AddOutputFilterByType DEFLATE text/css
                DeflateCompressionLevel 4
                BrotliCompressionQuality 7
                CompressionMinimumSize 1000
                """);
        CompressionSettings s = ((CompressionSettings.Builder) c.extensions().get(CompressionDirectives.KEY)).build();
        assertEquals(Set.of(ContentCoding.GZIP, ContentCoding.BROTLI), s.codingsFor("text/html; charset=utf-8"));
        assertEquals(Set.of(ContentCoding.GZIP), s.codingsFor("text/css"));
        assertEquals(Set.of(), s.codingsFor("image/png"));
        assertEquals(4, s.gzipLevel());
        assertEquals(7, s.brotliQuality());
        assertEquals(1000, s.minimumSize());
        CompressionSettings all = ((CompressionSettings.Builder) parse("SetOutputFilter DEFLATE").extensions()
                .get(CompressionDirectives.KEY)).build();
        assertEquals(Set.of(ContentCoding.GZIP), all.codingsFor("image/png"));
        assertEquals(CompressionSettings.DEFAULT_GZIP_LEVEL, all.gzipLevel());
        CompressionScopes scopes = CompressionScopes.of(parse("""
                AddOutputFilterByType DEFLATE text/html
                SetOutputFilter BROTLI_COMPRESS
                DeflateCompressionLevel 4
                <Location /a/>
                    AddOutputFilterByType BROTLI_COMPRESS text/css
                    DeflateCompressionLevel 9
                </Location>
                <Location /a/b/>
                    SetOutputFilter DEFLATE
                    CompressionMinimumSize 10
                </Location>
                <Location /off>
                    SetOutputFilter none
                    AddOutputFilterByType DEFLATE application/json
                </Location>
                """));
        assertTrue(scopes.scoped());
        CompressionSettings top = scopes.settingsFor("/x.css");
        assertEquals(Set.of(ContentCoding.BROTLI), top.codingsFor("text/css"), "the every-type filter");
        assertEquals(4, top.gzipLevel());
        CompressionSettings a = scopes.settingsFor("/a/x.css");
        assertEquals(Set.of(ContentCoding.BROTLI), a.codingsFor("text/css"));
        assertEquals(Set.of(ContentCoding.GZIP, ContentCoding.BROTLI), a.codingsFor("text/html"), "types add up");
        assertEquals(9, a.gzipLevel(), "the inner section's level wins");
        CompressionSettings ab = scopes.settingsFor("/a/b/c");
        assertEquals(Set.of(ContentCoding.GZIP), ab.codingsFor("image/png"), "SetOutputFilter replaces the inherited one");
        assertEquals(Set.of(ContentCoding.GZIP, ContentCoding.BROTLI), ab.codingsFor("text/css"));
        assertEquals(9, ab.gzipLevel());
        assertEquals(10, ab.minimumSize());
        assertEquals(CompressionSettings.DEFAULT_MINIMUM_SIZE, a.minimumSize());
        CompressionSettings off = scopes.settingsFor("/off/page");
        assertEquals(Set.of(), off.codingsFor("text/html"), "none removes what was inherited");
        assertEquals(Set.of(ContentCoding.GZIP), off.codingsFor("application/json"), "and its own lines still add");
        assertEquals(Set.of(ContentCoding.BROTLI), scopes.settingsFor("/offside").codingsFor("text/css"),
                "whole segments only");
        assertTrue(error("SetOutputFilter none").contains("is for a <Location>"));
        assertTrue(error("AddOutputFilterByType INFLATE text/html").contains("unknown filter"));
        assertTrue(error("AddOutputFilterByType DEFLATE html").contains("not a media type"));
        assertTrue(error("DeflateCompressionLevel 10").contains("DeflateCompressionLevel"));
        assertTrue(error("BrotliCompressionQuality 12").contains("BrotliCompressionQuality"));
    }
}
