package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.config.ServerConfig;

/**
 * The default column of docs/configuration*.md against the typed defaults: what an empty file
 * gives the jar, and what {@code ServerConfig.builder().build()} gives an embedded server (the
 * docs state one default for both, so they must agree too).
 */
class DefaultsDocTest {
    /** A cell's leading value: {@code 60 s}, {@code 1 GiB; 0 = unlimited}, {@code 8190 bytes (≥ 64)}, {@code on}. */
    private static final Pattern VALUE = Pattern.compile(
            "^`?(?:(\\d+)\\s*(ms|s|min|KiB|MiB|GiB)?\\b|(on|off)\\b)", Pattern.CASE_INSENSITIVE);

    /** A row's directive: the first name of its first cell. */
    private static final Pattern NAME = Pattern.compile("^`(\\w+)`");
    /** The settings checked, by directive. */
    private static final Map<String, Function<ServerConfig, Object>> SETTINGS = new LinkedHashMap<>();

    /** The jar's own settings checked, by directive (they have no builder). */
    private static final Map<String, Function<LoomConfig, Object>> SITE = Map.of(
            "EnableSendfile", c -> c.site().enableSendfile(),
            "FileCacheValid", c -> c.site().fileCacheValid());

    static {
        SETTINGS.put("ListenBacklog", ServerConfig::listenBacklog);
        SETTINGS.put("StartServers", ServerConfig::startServers);
        SETTINGS.put("MinSpareThreads", ServerConfig::minSpareThreads);
        SETTINGS.put("MaxSpareThreads", ServerConfig::maxSpareThreads);
        // The documented 0 stands for ServerLimit x ThreadsPerChild, which build() puts in its place.
        SETTINGS.put("MaxRequestWorkers", c -> c.maxRequestWorkers() == c.serverLimit() * c.threadsPerChild()
                ? 0 : c.maxRequestWorkers());
        SETTINGS.put("ServerLimit", ServerConfig::serverLimit);
        SETTINGS.put("ThreadLimit", ServerConfig::threadLimit);
        SETTINGS.put("ChildPingInterval", ServerConfig::childPingInterval);
        SETTINGS.put("ChildPingMisses", ServerConfig::childPingMisses);
        SETTINGS.put("ChildWatchdogTimeout", ServerConfig::childWatchdogTimeout);
        SETTINGS.put("NonBlockingHandlerLimit", ServerConfig::nonBlockingHandlerLimit);
        SETTINGS.put("ThreadsPerChild", ServerConfig::threadsPerChild);
        SETTINGS.put("PollersPerChild", ServerConfig::pollersPerChild);
        SETTINGS.put("MaxConnectionsPerChild", ServerConfig::maxConnectionsPerChild);
        SETTINGS.put("RecycleListSize", ServerConfig::recycleListSize);
        SETTINGS.put("ConnectionBufferSize", ServerConfig::bufferSize);
        SETTINGS.put("AdmissionControl", ServerConfig::admissionControl);
        SETTINGS.put("OpenConnectionsPerChild", c -> c.admission().openConnectionsPerChild());
        SETTINGS.put("TcpNoDelay", ServerConfig::tcpNoDelay);
        SETTINGS.put("ClientChargeRate", c -> c.clientCharges().rate());
        SETTINGS.put("ClientChargeBurst", c -> c.clientCharges().burst());
        SETTINGS.put("ClientChargeTableSize", c -> c.clientCharges().tableSize());
        SETTINGS.put("TlsHandshakeQueueTimeout", c -> c.clientCharges().handshakeQueueTimeout());
        SETTINGS.put("WebSocketMaxInflateRatio", c -> c.clientCharges().inflateRatio());
        SETTINGS.put("RemoteIPProxyProtocolTimeout", c -> c.proxyProtocol().headerTimeout());
        SETTINGS.put("Timeout", ServerConfig::timeout);
        SETTINGS.put("FirstByteTimeout", ServerConfig::firstByteTimeout);
        SETTINGS.put("KeepAlive", ServerConfig::keepAlive);
        SETTINGS.put("KeepAliveTimeout", ServerConfig::keepAliveTimeout);
        SETTINGS.put("MaxKeepAliveRequests", ServerConfig::maxKeepAliveRequests);
        SETTINGS.put("LingerTimeout", ServerConfig::lingerTimeout);
        SETTINGS.put("GracefulShutdownTimeout", ServerConfig::gracefulShutdownTimeout);
        SETTINGS.put("GracefulStopDelay", ServerConfig::gracefulStopDelay);
        SETTINGS.put("OutboundQueueLimit", c -> c.streaming().outboundQueueLimit());
        SETTINGS.put("SuspendTimeout", c -> c.streaming().suspendTimeout());
        SETTINGS.put("EventStreamHeartbeat", c -> c.streaming().eventStreamHeartbeat());
        SETTINGS.put("LimitRequestLine", ServerConfig::limitRequestLine);
        SETTINGS.put("LimitRequestFields", ServerConfig::limitRequestFields);
        SETTINGS.put("LimitRequestFieldSize", ServerConfig::limitRequestFieldSize);
        SETTINGS.put("LimitRequestBody", ServerConfig::limitRequestBody);
        SETTINGS.put("H2MaxConcurrentStreams", c -> c.http2().maxConcurrentStreams());
        SETTINGS.put("H2WindowSize", c -> c.http2().windowSize());
        SETTINGS.put("H2MaxFrameSize", c -> c.http2().maxFrameSize());
        SETTINGS.put("H2MaxHeaderListSize", c -> c.http2().maxHeaderListSize());
        SETTINGS.put("WebSocketMessageTimeout", c -> c.inputBudget().webSocketMessageTimeout());
        SETTINGS.put("H2HeaderTableSize", c -> c.http2().headerTableSize());
        SETTINGS.put("H2SettingsTimeout", c -> c.http2().settingsTimeout());
        SETTINGS.put("H2MaxResetsPerSecond", c -> c.http2().maxResetsPerSecond());
        SETTINGS.put("H2MaxControlFramesPerSecond", c -> c.http2().maxControlFramesPerSecond());
        SETTINGS.put("H2MaxEmptyFramesPerSecond", c -> c.http2().maxEmptyFramesPerSecond());
        SETTINGS.put("H2MaxContinuationFrames", c -> c.http2().maxContinuationFrames());
        SETTINGS.put("H2WebSocket", c -> c.http2().enableConnectProtocol());
        SETTINGS.put("H2StallTimeout", c -> c.http2().stallTimeout());
        SETTINGS.put("H2MaxOversizedHeadersPerMinute", c -> c.http2().maxOversizedHeadersPerMinute());
        SETTINGS.put("WebSocketMaxFrameSize", c -> c.webSocket().maxFrameSize());
        SETTINGS.put("WebSocketMaxMessageSize", c -> c.webSocket().maxMessageSize());
        SETTINGS.put("WebSocketIdleTimeout", c -> c.webSocket().idleTimeout());
        SETTINGS.put("WebSocketPingInterval", c -> c.webSocket().pingInterval());
        SETTINGS.put("WebSocketDeflate", c -> c.webSocket().deflate());
    }

    @Test
    void documentedDefaultsAreTheTypedOnes(@TempDir Path dir) throws Exception {
        Map<String, String> documented = new TreeMap<>();
        for (DocTables.Table t : DocTables.read()) {
            int col = t.column("default");
            if (col >= 0 && !t.header().isEmpty() && t.header().get(0).equals("directive")) {
                for (List<String> row : t.rows()) {
                    Matcher name = NAME.matcher(row.get(0));
                    if (name.find()) {
                        documented.put(name.group(1), row.get(col));
                    }
                }
            }
        }
        LoomConfig parsed = ConfigFiles.parse(dir, "");
        ServerConfig jar = parsed.engine();
        ServerConfig embedded = ServerConfig.builder().build();
        List<String> wrong = new ArrayList<>();
        SETTINGS.forEach((directive, setting) -> {
            Object typed = setting.apply(embedded);
            String cell = documented.get(directive);
            Object doc = cell == null ? "no row" : value(cell, typed);
            if (!typed.equals(doc)) {
                wrong.add(directive + ": documented " + cell + ", typed " + typed);
            }
            if (!typed.equals(setting.apply(jar))) {
                wrong.add(directive + ": the jar's default " + setting.apply(jar) + ", the builder's " + typed);
            }
        });
        SITE.forEach((directive, setting) -> {
            Object typed = setting.apply(parsed);
            String cell = documented.get(directive);
            if (cell == null || !typed.equals(value(cell, typed))) {
                wrong.add(directive + ": documented " + cell + ", typed " + typed);
            }
        });
        assertEquals(List.of(), wrong);
    }

    /** The cell's leading value in the setting's type ({@code like}), or the cell itself when it has none. */
    private static Object value(String cell, Object like) {
        Matcher m = VALUE.matcher(cell);
        if (!m.find()) {
            return cell;
        }
        if (m.group(3) != null) {
            return m.group(3).equalsIgnoreCase("on");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(Locale.ROOT);
        if (like instanceof Duration) {
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "min" -> Duration.ofMinutes(n);
                // "s", or a bare number: seconds, as the directive reads it.
                default -> Duration.ofSeconds(n);
            };
        }
        long bytes = switch (unit) {
            case "kib" -> n << 10;
            case "mib" -> n << 20;
            case "gib" -> n << 30;
            default -> n;
        };
        return like instanceof Integer ? (Object) (int) bytes : (Object) bytes;
    }
}
