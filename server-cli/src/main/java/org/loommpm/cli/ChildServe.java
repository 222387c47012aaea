package org.loommpm.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.loommpm.cli.children.ChildSpec;
import org.loommpm.cli.children.Control;
import org.loommpm.cli.children.ProcState;
import org.loommpm.cli.children.ScoreboardFile;
import org.loommpm.cli.children.ScoreboardPublisher;
import org.loommpm.cli.children.ScoreboardStats;
import org.loommpm.cli.config.LoomConfig;
import org.loommpm.cli.signals.SignalQueue;
import org.loommpm.config.ChildPolicy;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.Supervisor;

/**
 * A child process of {@code ChildProcesses On} ({@code --child SPEC}): one in-JVM child on
 * listeners bound with SO_REUSEPORT, its counts published to its scoreboard record, commands
 * taken from stdin ({@link Control}). It ends with status 0 after {@code drain} or {@code stop},
 * when its stdin closes (the supervisor is gone: no orphan keeps serving) or on {@code SIGTERM};
 * {@code SIGHUP} is ignored (graceful restarts are the supervisor's). Status 1: it could not start.
 *
 * <p>Threads: the main thread starts the server and then waits for commands; one platform thread
 * reads stdin, one turns signals into commands; the publisher has its own.
 */
final class ChildServe {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private ChildServe() {
    }

    /**
     * The engine settings of one child process: one in-JVM child (the supervisor runs StartServers
     * processes and the pool policy), and MaxConnectionsPerChild applied to the process by the
     * publisher, so the engine never replaces its child inside this JVM. Its liveness ping is the
     * process supervisor's too (it kills and replaces the whole process), so the engine here does
     * not ping its own child.
     */
    static LoomConfig forChild(LoomConfig c) {
        var engine = c.engine().toBuilder().startServers(1).childPolicy(ChildPolicy.STATIC).maxConnectionsPerChild(0)
                .childPingInterval(java.time.Duration.ZERO).build();
        return new LoomConfig(engine, c.site(), c.logs(), c.warnings(), c.description(), c.extensions());
    }

    /** @return the exit status */
    static int run(ChildSpec spec, LoomConfig config, ServerProcess.Loader loader, SignalQueue signals)
            throws InterruptedException {
        ScoreboardFile file;
        try {
            file = ScoreboardFile.open(spec.scoreboard());
            file.claim(spec.record(), ProcessHandle.current().pid(), spec.id(), spec.generation(),
                    config.engine().threadsPerChild(), System.currentTimeMillis());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "LM1001 could not start child {0}: scoreboard: {1}", spec.id(), e.getMessage());
            return 1;
        }
        // The status page shows every child process, from the shared scoreboard.
        ServerProcess process = new ServerProcess(loader, new ScoreboardStats(file)).onFatal(FatalExit.HOOK);
        if (!process.start(forChild(config), true)) {
            return 1;
        }
        HeapSize.log(HeapSize.ofThisJvm());
        BlockingQueue<Control> commands = new LinkedBlockingQueue<>();
        ScoreboardPublisher publisher = new ScoreboardPublisher(file, spec.record(), EngineStats.of(process.server().stats()),
                config.engine().maxConnectionsPerChild());
        readCommands(commands, Supervisor.of(process.server().stats()), publisher);
        Thread.ofPlatform().daemon().name("loom-signals").start(new Runnable() {
            @Override
            public void run() {
                try {
                    for (;;) {
                        if (signals.take() == SignalQueue.Event.STOP) {
                            commands.add(Control.STOP);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        publisher.start();
        Control c = commands.take();
        if (c.kind() == Control.Kind.DRAIN) {
            LOG.log(Level.INFO, "LM1515 child {0} draining: {1}", spec.id(), c.reason());
            publisher.state(c.idle() ? ProcState.IDLE_KILLED : ProcState.FINISHING);
            CompletableFuture<Void> drained = process.server().drain(c.reason());
            while (!drained.isDone()) {
                Control next = commands.poll(50, TimeUnit.MILLISECONDS);
                if (next != null && next.kind() == Control.Kind.STOP) {
                    break;
                }
            }
        }
        publisher.state(ProcState.STOPPING);
        process.close();
        publisher.stop();
        return 0;
    }

    /**
     * Stdin, line by line, into {@code commands}; its end (the supervisor is gone) is a stop. A
     * ping goes to the engine instead, as a worker task whose answer the publisher carries to the
     * scoreboard: this thread only hands it over, it never answers itself.
     */
    private static void readCommands(BlockingQueue<Control> commands, Supervisor engine, ScoreboardPublisher publisher) {
        IntConsumer answer = new IntConsumer() {
            @Override
            public void accept(int n) {
                publisher.pingAnswered(n);
            }
        };
        Thread.ofPlatform().daemon().name("loom-control").start(new Runnable() {
            @Override
            public void run() {
                boolean stopSeen = false;
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        try {
                            Control c = Control.decode(line);
                            if (c.kind() == Control.Kind.PING) {
                                engine.ping(c.ping(), answer);
                                continue;
                            }
                            stopSeen |= c.kind() == Control.Kind.STOP;
                            commands.add(c);
                        } catch (IllegalArgumentException e) {
                            LOG.log(Level.WARNING, "LM1516 ignored: {0}", e.getMessage());
                        }
                    }
                } catch (IOException e) {
                    LOG.log(Level.DEBUG, "LM1527 control pipe failed: {0}", e.getMessage());
                }
                if (!stopSeen) {
                    LOG.log(Level.WARNING, "LM1514 the supervisor is gone (control pipe closed): stopping");
                    commands.add(Control.STOP);
                }
            }
        });
    }
}
