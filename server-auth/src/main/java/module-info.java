/**
 * HTTP Basic authentication for loom-mpm: {@link org.loommpm.auth.BasicAuth} (a filter), the
 * htpasswd and group files httpd reads ({@link org.loommpm.auth.PasswordFile},
 * {@link org.loommpm.auth.GroupFile}) and the password formats {@code htpasswd} writes
 * ({@link org.loommpm.auth.PasswordHash}). The jar's {@code AuthType Basic} uses the same classes.
 */
// "requires-automatic": spring-security-crypto has no module descriptor.
@SuppressWarnings("requires-automatic")
module org.loommpm.auth {
    requires transitive org.loommpm.core;
    requires org.apache.commons.codec;
    requires spring.security.crypto;

    exports org.loommpm.auth;
}
