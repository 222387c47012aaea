package org.loommpm.cli.signals;

import java.lang.System.Logger.Level;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import sun.misc.Signal;

/**
 * Turns {@code SIGTERM}, {@code SIGINT} and {@code SIGHUP} into events one control thread takes
 * in order, so a restart and a stop never run at once and neither runs on the JVM's signal
 * thread. Handling TERM and INT here (instead of a shutdown hook) means the JVM does not begin
 * exiting while the graceful stop is still logging: the control thread stops the server, flushes
 * the logs, then exits with status 0. {@code sun.misc.Signal} (module {@code jdk.unsupported})
 * is the only way the JDK offers to handle HUP; javac warns about it, and that is expected.
 */
public final class SignalQueue {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli.signals");

    /** What a signal asks for. */
    public enum Event {
        /** {@code SIGTERM} or {@code SIGINT}: graceful stop. */
        STOP,
        /** {@code SIGHUP}: re-read the configuration, graceful restart. */
        RESTART
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    /** Installs the handlers; a signal the platform does not have is logged and skipped. */
    public SignalQueue install() {
        handle("TERM", Event.STOP);
        handle("INT", Event.STOP);
        handle("HUP", Event.RESTART);
        return this;
    }

    private void handle(String name, Event event) {
        try {
            Signal.handle(new Signal(name), new Enqueue(event));
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "LM1401 cannot handle SIG{0} on this platform: {1}", name, e.getMessage());
        }
    }

    /** A signal handler that queues its event (a class, not a lambda: it is set up at start-up). */
    private final class Enqueue implements sun.misc.SignalHandler {
        private final Event event;

        Enqueue(Event event) {
            this.event = event;
        }

        @Override
        public void handle(Signal signal) {
            events.add(event);
        }
    }

    /** Blocks until the next signal. */
    public Event take() throws InterruptedException {
        return events.take();
    }
}
