package org.loommpm.examples.taskboard;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed session tokens: {@code user.expiry.signature}, the signature an HMAC-SHA256 of the
 * first two parts under a key made at start-up (so a restart logs everyone out). Nothing is
 * stored on the server; a token cannot be forged or extended without the key.
 */
final class Sessions {
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private final byte[] key = new byte[32];
    private final Clock clock;
    private final Duration lifetime;

    Sessions(Clock clock, Duration lifetime) {
        new SecureRandom().nextBytes(key);
        this.clock = clock;
        this.lifetime = lifetime;
    }

    Duration lifetime() {
        return lifetime;
    }

    /** {@return a token for {@code user}, valid for the session lifetime} */
    String issue(String user) {
        String payload = B64.encodeToString(user.getBytes(StandardCharsets.UTF_8)) + "."
                + clock.instant().plus(lifetime).getEpochSecond();
        return payload + "." + sign(payload);
    }

    /** {@return the user a valid, unexpired token names, else {@code null}} */
    String user(String token) {
        if (token == null) {
            return null;
        }
        int dot = token.lastIndexOf('.');
        int first = token.indexOf('.');
        if (dot <= 0 || first == dot) {
            return null;
        }
        String payload = token.substring(0, dot);
        byte[] given = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(given, sign(payload).getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        try {
            long expiry = Long.parseLong(payload.substring(first + 1));
            if (clock.instant().getEpochSecond() >= expiry) {
                return null;
            }
            return new String(Base64.getUrlDecoder().decode(payload.substring(0, first)), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    private String sign(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return B64.encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
