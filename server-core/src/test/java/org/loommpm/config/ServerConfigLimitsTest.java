package org.loommpm.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool limits' relations, adjusted with a note each as httpd's worker MPM does. */
class ServerConfigLimitsTest {
    @Test
    void defaultsNeedNoAdjustment() {
        ServerConfig c = ServerConfig.builder().build();
        assertEquals(List.of(), c.adjustments());
        assertEquals(ChildPolicy.STATIC, c.childPolicy());
        assertEquals(ServerConfig.DEFAULT_SERVER_LIMIT * ServerConfig.DEFAULT_THREADS_PER_CHILD, c.maxRequestWorkers());
        assertEquals(ServerConfig.DEFAULT_SERVER_LIMIT, c.childLimit());
        assertEquals(Duration.ofSeconds(10), c.childWatchdogTimeout());
        assertEquals(List.of(), ServerConfig.builder().childPolicy(ChildPolicy.DYNAMIC).build().adjustments());
    }

    @Test
    void threadsPerChildIsCappedByThreadLimit() {
        ServerConfig c = ServerConfig.builder().threadLimit(64).threadsPerChild(100).build();
        assertEquals(64, c.threadsPerChild());
        assertEquals(List.of("ThreadsPerChild of 100 exceeds ThreadLimit of 64, decreasing to match"), c.adjustments());
        assertEquals(ServerConfig.MAX_THREAD_LIMIT, ServerConfig.builder().threadLimit(50000).build().threadLimit());
    }

    @Test
    void maxRequestWorkersIsAMultipleOfThreadsPerChildWithinServerLimit() {
        ServerConfig c = ServerConfig.builder().threadsPerChild(25).maxRequestWorkers(110).build();
        assertEquals(100, c.maxRequestWorkers());
        assertEquals(4, c.childLimit());
        assertTrue(c.adjustments().get(0).contains("not a multiple of ThreadsPerChild of 25, decreasing to 100"),
                c.adjustments().toString());

        ServerConfig small = ServerConfig.builder().threadsPerChild(25).maxRequestWorkers(10).build();
        assertEquals(25, small.maxRequestWorkers());

        ServerConfig capped = ServerConfig.builder().threadsPerChild(10).serverLimit(4).maxRequestWorkers(100).build();
        assertEquals(40, capped.maxRequestWorkers());
        assertTrue(capped.adjustments().get(0).contains("more than ServerLimit of 4, decreasing to 40"));
    }

    @Test
    void startServersIsCappedByTheChildLimit() {
        ServerConfig c = ServerConfig.builder().threadsPerChild(10).maxRequestWorkers(30).startServers(5).build();
        assertEquals(3, c.startServers());
        assertEquals(1, c.adjustments().size());
    }

    @Test
    void sparesAreAdjustedForTheDynamicPolicy() {
        ServerConfig c = ServerConfig.builder().childPolicy(ChildPolicy.DYNAMIC).threadsPerChild(25)
                .minSpareThreads(0).maxSpareThreads(10).build();
        assertEquals(1, c.minSpareThreads());
        assertEquals(26, c.maxSpareThreads(), "MaxSpareThreads >= MinSpareThreads + ThreadsPerChild");
        assertEquals(2, c.adjustments().size());
        ServerConfig stat = ServerConfig.builder().threadsPerChild(25).maxSpareThreads(10).build();
        assertEquals(10, stat.maxSpareThreads(), "the static policy does not use the spares");
    }

    @Test
    void toBuilderDerivesMaxRequestWorkersAgain() {
        ServerConfig c = ServerConfig.builder().build().toBuilder().threadsPerChild(4).build();
        assertEquals(List.of(), c.adjustments());
        assertEquals(ServerConfig.DEFAULT_SERVER_LIMIT * 4, c.maxRequestWorkers());
    }

    @Test
    void watchdogTimeoutIsOffOrAtLeastASecond() {
        assertEquals(Duration.ZERO, ServerConfig.builder().childWatchdogTimeout(Duration.ZERO).build()
                .childWatchdogTimeout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder().childWatchdogTimeout(Duration.ofMillis(500)).build());
        assertTrue(e.getMessage().contains("ChildWatchdogTimeout must be 0 (off) or at least 1 second"));
    }
}
