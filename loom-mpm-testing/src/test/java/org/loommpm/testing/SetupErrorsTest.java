package org.loommpm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.loommpm.api.Handler;

/** A class whose set-up is missing or malformed fails with a message that says what to write. */
class SetupErrorsTest {
    @Test
    void aClassWithoutSetupFails() {
        Throwable t = failureOf(NoSetup.class);
        assertInstanceOf(ExtensionConfigurationException.class, t);
        assertTrue(t.getMessage().contains("needs a static @LoomServerSetup method"), t.getMessage());
    }

    @Test
    void anInstanceSetupMethodFails() {
        Throwable t = failureOf(InstanceSetup.class);
        assertInstanceOf(ExtensionConfigurationException.class, t);
        assertTrue(t.getMessage().contains("is static and either returns a Handler"), t.getMessage());
    }

    private static Throwable failureOf(Class<?> testClass) {
        var events = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.conditions.deactivate", "*")
                .selectors(DiscoverySelectors.selectClass(testClass)).execute().allEvents().failed().list();
        assertEquals(1, events.size(), events.toString());
        Event failed = events.get(0);
        return failed.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }

    /** Run only through EngineTestKit above (its nested classes are not found by Surefire's scan). */
    @LoomServerTest
    static class NoSetup {
        @Test
        void never() {
        }
    }

    @LoomServerTest
    static class InstanceSetup {
        @LoomServerSetup
        Handler app() {
            return (req, res) -> res.send("x");
        }

        @Test
        void never() {
        }
    }
}
