package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.logging.LogLevel;
import org.loommpm.config.ChildScaling;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.config.ServerConfig;

class ConfigParserTest {
    @TempDir
    Path dir;

    private LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private ConfigException error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text));
    }

    /** ConfigFuzzTest found a NUL in a path argument escaping as an InvalidPathException. */
    @Test
    void aPathWithANulIsAConfigurationError() {
        for (String line : List.of("ErrorLog \"logs/a\0b.log\"", "DocumentRoot \"/tmp/a\0\"",
                "SSLCertificateFile \"x\0\"", "Include \"a\0*.conf\"", "ServerRoot \"/\0\"")) {
            ConfigException e = error(line);
            assertTrue(e.getMessage().contains("is not a valid path"), line + ": " + e.getMessage());
        }
    }

    /** ConfigFuzzTest found an empty SSLProtocol argument escaping as a StringIndexOutOfBoundsException. */
    @Test
    void anEmptySslProtocolArgumentIsAConfigurationError() {
        assertTrue(error("SSLProtocol \"\"").getMessage().contains("unknown protocol ''"));
        assertTrue(error("SSLProtocol TLSv1.3 ''").getMessage().contains("unknown protocol ''"));
    }

    @Test
    void fileCacheValid() throws Exception {
        assertEquals(SiteSettings.DEFAULT_FILE_CACHE_VALID, parse("").site().fileCacheValid());
        assertEquals(java.time.Duration.ofMillis(250), parse("FileCacheValid 250ms").site().fileCacheValid());
        assertEquals(java.time.Duration.ZERO, parse("FileCacheValid 0").site().fileCacheValid());
        assertTrue(error("FileCacheValid soon").getMessage().contains("FileCacheValid"));
    }

    @Test
    void http2Directives() throws Exception {
        LoomConfig c = parse("""
                H2MaxConcurrentStreams 50
                H2WindowSize 131072
                H2MaxFrameSize 32768
                H2MaxHeaderListSize 8192
                H2HeaderTableSize 0
                H2SettingsTimeout 3
                H2MaxResetsPerSecond 20
                H2MaxControlFramesPerSecond 30
                H2MaxEmptyFramesPerSecond 40
                H2MaxContinuationFrames 5
                H2WebSocket Off
                """);
        org.loommpm.config.Http2Settings h = c.engine().http2();
        assertEquals(50, h.maxConcurrentStreams());
        assertEquals(131072, h.windowSize());
        assertEquals(32768, h.maxFrameSize());
        assertEquals(8192, h.maxHeaderListSize());
        assertEquals(0, h.headerTableSize());
        assertEquals(Duration.ofSeconds(3), h.settingsTimeout());
        assertEquals(20, h.maxResetsPerSecond());
        assertEquals(30, h.maxControlFramesPerSecond());
        assertEquals(40, h.maxEmptyFramesPerSecond());
        assertEquals(5, h.maxContinuationFrames());
        assertEquals(false, h.enableConnectProtocol());
        assertEquals(true, org.loommpm.config.Http2Settings.DEFAULTS.enableConnectProtocol());
        assertEquals(7, parse("H2MaxSessionStreams 7").engine().http2().maxConcurrentStreams());
        assertEquals(org.loommpm.config.Http2Settings.DEFAULTS, parse("").engine().http2());
        assertTrue(error("H2MaxFrameSize 1000").getMessage().contains("H2MaxFrameSize"));
        assertTrue(error("H2MaxConcurrentStreams 0").getMessage().contains("H2MaxConcurrentStreams"));
    }

    @Test
    void streamingDirectives() throws Exception {
        LoomConfig c = parse("""
                OutboundQueueLimit 131072
                SuspendTimeout 2mi
                EventStreamHeartbeat 500ms
                """);
        org.loommpm.config.StreamingSettings st = c.engine().streaming();
        assertEquals(131072, st.outboundQueueLimit());
        assertEquals(Duration.ofMinutes(2), st.suspendTimeout());
        assertEquals(Duration.ofMillis(500), st.eventStreamHeartbeat());
        assertEquals(Duration.ZERO, parse("EventStreamHeartbeat 0").engine().streaming().eventStreamHeartbeat());
        assertEquals(org.loommpm.config.StreamingSettings.DEFAULTS, parse("").engine().streaming());
        assertTrue(error("OutboundQueueLimit 10").getMessage().contains("OutboundQueueLimit"));
        assertTrue(error("SuspendTimeout 0").getMessage().contains("SuspendTimeout"));
        assertTrue(error("EventStreamHeartbeat 10ms").getMessage().contains("EventStreamHeartbeat"));
    }

    @Test
    void clientChargeDirectives() throws Exception {
        LoomConfig c = parse("""
                ClientChargeRate 1048576
                ClientChargeBurst 8388608
                ClientChargeTableSize 128
                TlsHandshakeConcurrency 3
                TlsHandshakeQueueTimeout 500ms
                WebSocketMaxInflateRatio 50 8192
                """);
        org.loommpm.config.ClientChargeSettings cc = c.engine().clientCharges();
        assertEquals(1 << 20, cc.rate());
        assertEquals(8 << 20, cc.burst());
        assertEquals(128, cc.tableSize());
        assertEquals(3, cc.handshakeConcurrency());
        assertEquals(Duration.ofMillis(500), cc.handshakeQueueTimeout());
        assertEquals(50, cc.inflateRatio());
        assertEquals(8192, cc.inflateRatioMinBytes());
        assertFalse(parse("ClientChargeRate 0").engine().clientCharges().charging());
        assertEquals(org.loommpm.config.ClientChargeSettings.DEFAULTS, parse("").engine().clientCharges());
        assertTrue(error("ClientChargeBurst 1000").getMessage().contains("ClientChargeBurst"));
        assertTrue(error("TlsHandshakeConcurrency 0").getMessage().contains("TlsHandshakeConcurrency"));
        assertTrue(error("WebSocketMaxInflateRatio 1").getMessage().contains("WebSocketMaxInflateRatio"));
    }

    @Test
    void engineDirectivesAreCaseInsensitiveAndTyped() throws Exception {
        LoomConfig c = parse("""
                # a comment
                listen 127.0.0.1:9001
                Listen [::1]:9002
                THREADSPERCHILD 64
                KeepAliveTimeout 500ms
                Timeout 2mi
                RequestReadTimeout header=7
                MaxKeepAliveRequests 0
                LimitRequestBody 1024
                KeepAlive Off
                GracefulShutdownTimeout 0
                ServerTokens Prod
                """);
        assertEquals(2, c.engine().listen().size());
        assertEquals(InetAddress.getByName("::1"), c.engine().listen().get(1).getAddress());
        assertEquals(64, c.engine().threadsPerChild());
        assertEquals(Duration.ofMillis(500), c.engine().keepAliveTimeout());
        assertEquals(Duration.ofMinutes(2), c.engine().timeout());
        assertEquals(Duration.ofSeconds(7), c.engine().requestHeaderTimeout());
        assertEquals(0, c.engine().maxKeepAliveRequests());
        assertEquals(1024, c.engine().limitRequestBody());
        assertFalse(c.engine().keepAlive());
        assertEquals(Duration.ZERO, c.engine().gracefulShutdownTimeout());
        assertEquals("loom-mpm", c.engine().serverHeader());
    }

    @Test
    void requestReadTimeoutTakesHttpdsFullFormStageByStage() throws Exception {
        assertEquals(RequestReadTimeout.DEFAULT, parse("").engine().requestReadTimeout());
        assertEquals(Duration.ofSeconds(10), parse("").engine().firstByteTimeout());
        LoomConfig c = parse("""
                RequestReadTimeout header=10-30,MinRate=1000
                RequestReadTimeout body=0 handshake=5
                FirstByteTimeout 3
                """);
        RequestReadTimeout t = c.engine().requestReadTimeout();
        assertEquals(new RequestReadTimeout.Stage(Duration.ofSeconds(10), Duration.ofSeconds(30), 1000), t.header());
        assertEquals(RequestReadTimeout.Stage.OFF, t.body());
        assertEquals(Duration.ofSeconds(5), t.handshake());
        assertEquals(Duration.ofSeconds(3), c.engine().firstByteTimeout());
        assertEquals(ServerConfig.DEFAULT_NON_BLOCKING_HANDLER_LIMIT, parse("").engine().nonBlockingHandlerLimit());
        assertEquals(Duration.ofMillis(250), parse("NonBlockingHandlerLimit 250ms").engine().nonBlockingHandlerLimit());
        assertEquals(Duration.ZERO, parse("NonBlockingHandlerLimit 0").engine().nonBlockingHandlerLimit());
        assertEquals("handshake=5 header=10-30,MinRate=1000 body=0", t.toString());
    }

    @Test
    void childScalingAndLivenessPing() throws Exception {
        var d = parse("").engine();
        assertEquals(ChildScaling.WORKER, d.childScaling());
        assertEquals(Duration.ofSeconds(10), d.childPingInterval());
        assertEquals(3, d.childPingMisses());
        var c = parse("ChildScaling spamd\nChildPingInterval 500ms\nChildPingMisses 5\n").engine();
        assertEquals(ChildScaling.SPAMD, c.childScaling());
        assertEquals(Duration.ofMillis(500), c.childPingInterval());
        assertEquals(5, c.childPingMisses());
        assertEquals(Duration.ZERO, parse("ChildPingInterval 0\n").engine().childPingInterval());
        assertTrue(error("ChildScaling prefork").getMessage().contains("worker or spamd"));
        assertTrue(error("ChildPingMisses 0").getMessage().contains("ChildPingMisses"));
    }

    @Test
    void continuationLinesAndQuotes() throws Exception {
        LoomConfig c = parse("DirectoryIndex \\\n  a.html \\\n  \"b c.html\"\nLogFormat \"%h \\\"%r\\\"\" mine\n");
        assertEquals(List.of("a.html", "b c.html"), c.site().directoryIndex());
    }

    @Test
    void errorsNameFileAndLine() {
        ConfigException e = error("Listen 9003\n\nListne 80\n");
        assertEquals(3, e.line());
        assertEquals("Syntax error on line 3 of " + dir.resolve("loom.conf") + ": Invalid command 'Listne', perhaps "
                + "misspelled or defined by a module not included in the server configuration", e.report());
    }

    @Test
    void valuesOutOfRangeAreErrors() {
        assertTrue(error("ThreadsPerChild 0").getMessage().contains("ThreadsPerChild must be at least 1"));
        assertTrue(error("Listen 70000").getMessage().contains("between 0 and 65535"));
        assertTrue(error("KeepAlive maybe").getMessage().contains("On or Off"));
        assertTrue(error("KeepAliveTimeout 0").getMessage().contains("greater than 0"));
        assertTrue(error("Timeout 5 years").getMessage().contains("takes one argument"));
        assertTrue(error("LimitRequestLine 10").getMessage().contains("between 64"));
        assertTrue(error("LimitRequestBody 4294967296").getMessage().contains("LimitRequestBody"));
        assertTrue(error("Listen 9004\nListen 9004").getMessage().contains("multiple Listeners"));
        assertTrue(error("Listen example.com:80").getMessage().contains("not an IP address"));
        assertTrue(error("LogLevel loud").getMessage().contains("level keyword"));
        assertTrue(error("LogFormat \"%h %Z\" x").getMessage().contains("%Z"));
        assertTrue(error("CustomLog /dev/stdout nosuchnick").getMessage().contains("nosuchnick"));
        assertTrue(error("DocumentRoot /no/such/dir").getMessage().contains("does not exist"));
        assertTrue(error("Options +Indexes FollowSymLinks").getMessage().contains("Either all Options"));
        assertTrue(error("RequestReadTimeout tail=10").getMessage().contains("header="));
        assertTrue(error("RequestReadTimeout header=10-20").getMessage().contains("MinRate"));
        assertTrue(error("RequestReadTimeout header=20-10,MinRate=5").getMessage().contains("maximum"));
        assertTrue(error("RequestReadTimeout body=10,Rate=5").getMessage().contains("MinRate"));
        assertTrue(error("RequestReadTimeout handshake=5-9,MinRate=1").getMessage().contains("handshake="));
    }

    @Test
    void threadsPerChildClampsWithAWarningLikeHttpd() throws Exception {
        LoomConfig c = parse("ThreadsPerChild 50000\n");
        assertEquals(EngineDirectives.THREAD_LIMIT, c.engine().threadsPerChild());
        assertEquals(1, c.warnings().size());
        assertTrue(c.warnings().get(0).contains("line 1"), c.warnings().get(0));
    }

    @Test
    void poolDirectivesAndTheirRelations() throws Exception {
        LoomConfig c = parse("""
                ChildPolicy dynamic
                MaxSpareThreads 10
                ThreadsPerChild 25
                MinSpareThreads 5
                MaxRequestWorkers 110
                ServerLimit 16
                ThreadLimit 30
                ChildWatchdogTimeout 0
                """);
        var e = c.engine();
        assertEquals(org.loommpm.config.ChildPolicy.DYNAMIC, e.childPolicy());
        assertEquals(25, e.threadsPerChild());
        assertEquals(30, e.threadLimit());
        assertEquals(16, e.serverLimit());
        assertEquals(100, e.maxRequestWorkers(), "rounded down to a multiple of ThreadsPerChild");
        assertEquals(5, e.minSpareThreads());
        assertEquals(30, e.maxSpareThreads(), "raised to MinSpareThreads + ThreadsPerChild");
        assertEquals(java.time.Duration.ZERO, e.childWatchdogTimeout());
        assertEquals(2, e.adjustments().size(), e.adjustments().toString());
        assertEquals(List.of(), c.warnings(), "relations are the engine's adjustments, not line warnings");
        assertEquals(20, parse("ThreadLimit 20\nThreadsPerChild 64\n").engine().threadsPerChild(),
                "ThreadLimit caps ThreadsPerChild whatever the order");
        assertEquals(400, parse("MaxClients 400\nThreadsPerChild 25\n").engine().maxRequestWorkers());
        assertTrue(error("ChildPolicy prefork").getMessage().contains("static or dynamic"));
        assertTrue(error("ChildWatchdogTimeout 500ms").getMessage().contains("at least 1 second"));
        assertTrue(error("MaxRequestWorkers 0").getMessage().contains("MaxRequestWorkers"));
    }

    @Test
    void locationsWithHandlersAndRequire() throws Exception {
        LoomConfig c = parse("""
                <Location /server-status>
                    SetHandler server-status
                    Require ip 127.0.0.1 10.0.0.0/8 ::1
                </Location>
                <Location /private>
                    Require all denied
                </Location>
                """);
        List<LocationSettings> l = c.site().locations();
        assertEquals(2, l.size());
        assertEquals("server-status", l.get(0).handler());
        assertTrue(l.get(0).require().allows(InetAddress.getByName("10.2.3.4"), null, "GET"));
        assertTrue(l.get(0).require().allows(InetAddress.getByName("::1"), null, "GET"));
        assertFalse(l.get(0).require().allows(InetAddress.getByName("192.168.1.1"), null, "GET"));
        assertNull(l.get(1).handler());
        assertFalse(l.get(1).require().allows(InetAddress.getByName("127.0.0.1"), null, "GET"));
        assertTrue(l.get(1).matches("/private"));
        assertTrue(l.get(1).matches("/private/x"));
        assertFalse(l.get(1).matches("/privateer"));
    }

    @Test
    void sectionErrors() {
        assertTrue(error("<Location /a>\nSetHandler server-status\n").getMessage().contains("was not closed"));
        assertEquals(1, error("<Location /a>\nSetHandler server-status\n").line());
        assertTrue(error("</Location>").getMessage().contains("without matching"));
        assertTrue(error("SetHandler server-status").getMessage().contains("only allowed within <Location>"));
        assertTrue(error("<Location /a>\nListen 80\n</Location>").getMessage().contains("cannot occur within"));
        assertTrue(error("<Location /a>\nSetHandler php\n</Location>").getMessage().contains("unknown handler"));
        assertTrue(error("<Location /a>\nRequire ip 300.1.1.1\n</Location>").getMessage().contains("not an IP"));
        assertTrue(error("<Location /a\n").getMessage().contains("closing '>'"));
        assertTrue(error("<Directory /a>\n</Directory>").getMessage().contains("Invalid command '<Directory'"));
    }

    /**
     * httpd refuses {@code <Location>} inside {@code <Proxy>} ("cannot occur within <Proxy>
     * section"); read as if it stood at the top level, its {@code Require} would silently apply
     * to the URL-path rather than to the balancer it was written in.
     */
    @Test
    void aLocationCannotStandInAProxySection() {
        String members = "<Proxy balancer://b>\nBalancerMember http://127.0.0.1:1\n";
        ConfigException e = error(members + "<Location /a>\nRequire all denied\n</Location>\n</Proxy>\n");
        assertEquals("<Location> cannot occur within <Proxy> section", e.getMessage());
        assertEquals(3, e.line());
        e = error(members + "<IfDefine !X>\n<Location /a>\n</Location>\n</IfDefine>\n</Proxy>\n");
        assertEquals("<Location> cannot occur within <Proxy> section", e.getMessage(), "nor in a section inside it");
        assertEquals(4, e.line());
    }

    @Test
    void includeWithGlobsInNameOrder() throws Exception {
        Files.createDirectories(dir.resolve("conf.d"));
        Files.writeString(dir.resolve("conf.d/20-b.conf"), "ThreadsPerChild 20\n");
        Files.writeString(dir.resolve("conf.d/10-a.conf"), "ThreadsPerChild 10\nStartServers 2\n");
        Files.writeString(dir.resolve("conf.d/ignored.txt"), "Bogus\n");
        LoomConfig c = parse("Include conf.d/*.conf\nIncludeOptional nothing/*.conf\n");
        assertEquals(20, c.engine().threadsPerChild());
        assertEquals(2, c.engine().startServers());
    }

    @Test
    void includeErrorsPointIntoTheIncludedFile() throws IOException {
        Files.writeString(dir.resolve("inc.conf"), "\nBogusDirective\n");
        ConfigException e = error("Include inc.conf\n");
        assertEquals(dir.resolve("inc.conf").toString(), e.source());
        assertEquals(2, e.line());
        assertTrue(error("Include nope/*.conf").getMessage().contains("No such file or directory"));
        Files.writeString(dir.resolve("self.conf"), "Include self.conf\n");
        assertTrue(error("Include self.conf").getMessage().contains("recursion"));
    }

    @Test
    void commandLineDirectivesBeforeAndAfter() throws Exception {
        Path f = dir.resolve("x.conf");
        Files.writeString(f, "ThreadsPerChild 10\n");
        LoomConfig c = new ConfigParser(DirectiveTable.standard()).parse(
                new ConfigParser.Source(f, null, List.of("StartServers 3", "ThreadsPerChild 5"), List.of("LogLevel debug")));
        assertEquals(10, c.engine().threadsPerChild(), "the file overrides -C");
        assertEquals(3, c.engine().startServers());
        assertEquals(LogLevel.DEBUG, c.logs().levels().threshold());
        ConfigException e = assertThrows(ConfigException.class, () -> new ConfigParser(DirectiveTable.standard())
                .parse(new ConfigParser.Source(f, null, List.of(), List.of("KeepAlive", "Nope 1"))));
        assertEquals("-c option", e.source());
        assertEquals(1, e.line());
    }

    @Test
    void typesAndOptionsAndLogs() throws Exception {
        Files.writeString(dir.resolve("mime.types"), "# comment\napplication/x-foo foo fo2\ntext/x-bar bar\n");
        LoomConfig c = parse("""
                TypesConfig mime.types
                AddType text/x-override bar
                Options Indexes FollowSymLinks
                Options -FollowSymLinks
                LogLevel warn engine:debug http1:trace3
                CustomLog access.log combined
                ErrorLog error.log
                EnableSendfile Off
                """);
        assertEquals("application/x-foo", c.site().types().get("fo2"));
        assertEquals("text/x-override", c.site().types().get("bar"));
        assertTrue(c.site().indexes());
        assertFalse(c.site().followSymLinks());
        assertFalse(c.site().enableSendfile());
        assertEquals(LogLevel.DEBUG, c.logs().levels().levelFor("org.loommpm.engine"));
        assertEquals(LogLevel.TRACE3, c.logs().levels().levelFor("org.loommpm.http1"));
        assertEquals(LogLevel.WARN, c.logs().levels().levelFor("org.loommpm.cli"));
        assertEquals(dir.resolve("error.log").toString(), c.logs().errorLog());
        assertEquals(1, c.logs().accessLogs().size());
        assertTrue(c.logs().accessLogs().get(0).format().contains("%{User-Agent}i"));
    }

    @Test
    void defaultsAccessLogToStdoutInCommonFormat() throws Exception {
        LoomConfig c = parse("");
        assertEquals("/dev/stdout", c.logs().accessLogs().get(0).target());
        assertEquals("%h %l %u %t \"%r\" %>s %b", c.logs().accessLogs().get(0).format());
        assertEquals("/dev/stderr", c.logs().errorLog());
    }

    @Test
    void theTableTakesNewDirectives() throws Exception {
        DirectiveTable t = DirectiveTable.standard();
        t.register("ExampleModule", 1, 1, DirectiveTable.SERVER, "On|Off",
                (s, l) -> s.extension("example", StringBuilder::new).append(l.args().get(0)));
        Path f = dir.resolve("example.conf");
        Files.writeString(f, "ExampleModule on\n");
        LoomConfig c = new ConfigParser(t).parse(new ConfigParser.Source(f, null, List.of(), List.of()));
        assertEquals("on", c.extensions().get("example").toString());
        assertThrows(IllegalArgumentException.class, () -> t.register("examplemodule", 1, 1, DirectiveTable.SERVER, "", null));
    }
}
