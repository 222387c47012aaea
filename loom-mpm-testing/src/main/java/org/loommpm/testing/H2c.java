package org.loommpm.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an {@link java.net.http.HttpClient} parameter of a {@link LoomServerTest} class: the
 * client that asks for HTTP/2 over cleartext (the JDK client sends {@code Upgrade: h2c} with its
 * first request on a connection, then speaks HTTP/2 on it).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface H2c {
}
