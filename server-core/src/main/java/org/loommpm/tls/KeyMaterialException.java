package org.loommpm.tls;

import java.io.IOException;

/**
 * Key material or a TLS setting that cannot be used, with the directive at fault so a
 * configuration check can point at its line ({@code SSLCertificateFile},
 * {@code SSLCertificateKeyFile}, {@code SSLCertificatePassword}, {@code SSLProtocol},
 * {@code SSLCipherSuite}).
 */
public final class KeyMaterialException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String directive;

    /**
     * @param directive the directive whose value is wrong
     * @param message what is wrong, naming the file when there is one
     */
    public KeyMaterialException(String directive, String message) {
        super(directive + ": " + message);
        this.directive = directive;
    }

    /** The directive whose value is wrong. */
    public String directive() {
        return directive;
    }
}
