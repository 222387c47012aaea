package org.loommpm.testing;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;

/**
 * The extension behind {@link LoomServerTest}: one server and its clients per test class, kept
 * in the class's {@link ExtensionContext.Store} (JUnit closes it after the class, in parallel
 * runs too: nothing is static, and every server binds its own ephemeral port).
 *
 * <p>A {@code @Nested} class without a {@link LoomServerSetup} method of its own uses its
 * enclosing class's server (the store's lookup falls back to the parent context); one with its
 * own method gets a server of its own.
 */
public final class LoomServerExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LoomServerExtension.class);
    private static final String KEY = "server";
    /** Connect timeout of the injected clients: a server that is up accepts at once. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /** Used by JUnit through {@link LoomServerTest}. */
    public LoomServerExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Class<?> testClass = context.getRequiredTestClass();
        List<Method> setups = AnnotationSupport.findAnnotatedMethods(testClass, LoomServerSetup.class,
                HierarchyTraversalMode.BOTTOM_UP);
        if (setups.isEmpty()) {
            if (context.getStore(NAMESPACE).get(KEY, Running.class) != null) {
                return; // a @Nested class: the enclosing class's server serves it
            }
            throw new ExtensionConfigurationException(testClass.getName()
                    + ": a @LoomServerTest class needs a static @LoomServerSetup method (a Handler or a builder set-up)");
        }
        Method setup = pick(testClass, setups);
        LoomServer.Builder builder = LoomServer.builder().listen("127.0.0.1", 0);
        Object result = setup.getParameterCount() == 0
                ? ReflectionSupport.invokeMethod(setup, null)
                : ReflectionSupport.invokeMethod(setup, null, builder);
        if (result instanceof Handler handler) {
            builder.handler(handler);
        }
        context.getStore(NAMESPACE).put(KEY, Running.start(builder));
    }

    /** The class's own method when it declares one, else the nearest superclass's; checks its form. */
    private static Method pick(Class<?> testClass, List<Method> setups) {
        Class<?> owner = setups.get(0).getDeclaringClass();
        List<Method> nearest = setups.stream().filter(m -> m.getDeclaringClass() == owner).toList();
        if (nearest.size() > 1) {
            throw new ExtensionConfigurationException(owner.getName() + " declares more than one @LoomServerSetup method");
        }
        Method m = nearest.get(0);
        boolean handlerForm = m.getParameterCount() == 0 && Handler.class.isAssignableFrom(m.getReturnType());
        boolean builderForm = m.getParameterCount() == 1 && m.getParameterTypes()[0] == LoomServer.Builder.class
                && (m.getReturnType() == void.class || Handler.class.isAssignableFrom(m.getReturnType()));
        if (!Modifier.isStatic(m.getModifiers()) || !(handlerForm || builderForm)) {
            throw new ExtensionConfigurationException(testClass.getName() + "." + m.getName()
                    + ": a @LoomServerSetup method is static and either returns a Handler or takes a LoomServer.Builder");
        }
        return m;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == URI.class || type == HttpClient.class || type == LoomServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = context.getStore(NAMESPACE).get(KEY, Running.class);
        if (running == null) {
            throw new ParameterResolutionException("no loom-mpm server for " + parameter.getDeclaringExecutable()
                    + ": is the class annotated @LoomServerTest with a @LoomServerSetup method?");
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == URI.class) {
            return running.base;
        }
        if (type == LoomServer.class) {
            return running.server;
        }
        return parameter.isAnnotated(H2c.class) ? running.h2c : running.h1;
    }

    /** A started server and its clients; closed by JUnit with the class's store. */
    private record Running(LoomServer server, URI base, HttpClient h1, HttpClient h2c) implements AutoCloseable {
        static Running start(LoomServer.Builder builder) throws IOException {
            LoomServer server = builder.start();
            InetSocketAddress first = server.addresses().get(0);
            URI base = URI.create("http://127.0.0.1:" + first.getPort() + "/");
            HttpClient h1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CONNECT_TIMEOUT).build();
            HttpClient h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .connectTimeout(CONNECT_TIMEOUT).build();
            return new Running(server, base, h1, h2c);
        }

        @Override
        public void close() {
            try {
                h1.close();
                h2c.close();
            } finally {
                server.close();
            }
        }
    }
}
