package org.loommpm.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlsSettingsTest {
    @Test
    void offByDefaultWithTls13And12() {
        TlsSettings t = ServerConfig.builder().build().tls();
        assertFalse(t.active());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), t.protocols());
        assertEquals(List.of(), t.cipherSuites());
    }

    @Test
    void aTlsListenerNeedsACertificate() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder().tls(t -> t.listen(new InetSocketAddress(8443))).build());
        assertEquals("Listen ... https needs SSLCertificateFile", e.getMessage());
        var on = assertThrows(IllegalArgumentException.class, () -> TlsSettings.builder().engine(true).build());
        assertEquals("SSLEngine on needs SSLCertificateFile", on.getMessage());
    }

    @Test
    void unknownProtocolsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> TlsSettings.builder().protocols(List.of("SSLv3")).build());
        assertTrue(e.getMessage().startsWith("SSLProtocol: unknown protocol SSLv3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TlsSettings.builder().protocols(List.of()).build());
    }

    @Test
    void httpsListenersAloneReplaceTheDefaultPortAndSurviveToBuilder() {
        ServerConfig c = ServerConfig.builder()
                .tls(t -> t.listen(new InetSocketAddress(8443)).certificateFile(Path.of("chain.pem")))
                .build();
        assertEquals(List.of(), c.listen(), "no plain 8080 added when only https listeners are given");
        ServerConfig copy = c.toBuilder().build();
        assertEquals(c.tls().listen(), copy.tls().listen());
        assertEquals(Path.of("chain.pem"), copy.tls().certificateFile());
    }

    @Test
    void clientCertificatesAreOffByDefaultAndSurviveToBuilder() {
        assertEquals(TlsSettings.VerifyClient.NONE, TlsSettings.DISABLED.verifyClient());
        var e = assertThrows(IllegalArgumentException.class,
                () -> TlsSettings.builder().verifyClient(TlsSettings.VerifyClient.OPTIONAL).build());
        assertEquals("SSLVerifyClient optional needs SSLCACertificateFile or SSLCACertificatePath", e.getMessage());
        TlsSettings t = TlsSettings.builder().verifyClient(TlsSettings.VerifyClient.REQUIRE)
                .caCertificateFile(Path.of("ca.pem")).build();
        TlsSettings copy = t.toBuilder().build();
        assertEquals(TlsSettings.VerifyClient.REQUIRE, copy.verifyClient());
        assertEquals(Path.of("ca.pem"), copy.caCertificateFile());
    }
}
