package org.loommpm.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the static method of a {@link LoomServerTest} class that says what its server serves.
 * Exactly one per class (a superclass's counts when the class has none). Its forms:
 * <ul>
 *   <li>no parameter, returns a {@link org.loommpm.api.Handler} (a
 *       {@link org.loommpm.api.Router}, a lambda): the server's handler;</li>
 *   <li>one {@link org.loommpm.server.LoomServer.Builder} parameter, already listening on
 *       {@code 127.0.0.1} port 0: the method sets the handler and anything else (configuration,
 *       a meter registry); it returns {@code void}, or a {@code Handler} that is then set.</li>
 * </ul>
 * A method that adds listeners of its own makes {@link java.net.URI} and the clients point at
 * the first one, the test's port-0 listener.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface LoomServerSetup {
}
