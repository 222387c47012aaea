package org.loommpm.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a loom-mpm server of its own.
 *
 * <p>Before the class's first test the server is started on {@code 127.0.0.1} on a free port
 * (port 0: the kernel picks it, so test classes run in parallel never collide), with the handler
 * or builder set-up that the class's {@link LoomServerSetup} method provides; after its last
 * test the server and the clients are closed. Test methods, constructors and lifecycle methods
 * declare what they need as parameters:
 * <ul>
 *   <li>{@link java.net.URI}: the base URI, {@code http://127.0.0.1:PORT/};</li>
 *   <li>{@link java.net.http.HttpClient}: a client speaking HTTP/1.1; annotated {@link H2c},
 *       one that asks for HTTP/2 over cleartext ({@code Upgrade: h2c} on its first request,
 *       answered in HTTP/2 when server-h2 is on the class path);</li>
 *   <li>{@link org.loommpm.server.LoomServer}: the server itself (its port, stats, drain).</li>
 * </ul>
 *
 * <pre>{@code
 * @LoomServerTest
 * class HelloTest {
 *     @LoomServerSetup
 *     static Router routes() {
 *         return new Router().get("/hello", (req, res) -> res.send("hi"));
 *     }
 *
 *     @Test
 *     void hello(HttpClient client, URI base) throws Exception {
 *         HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/hello")).build(),
 *                 HttpResponse.BodyHandlers.ofString());
 *         assertEquals("hi", r.body());
 *     }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(LoomServerExtension.class)
public @interface LoomServerTest {
}
