package org.loommpm.engine;

import java.util.function.IntConsumer;
import org.loommpm.spi.WorkerTask;

/**
 * Liveness of a child's engine (spamd's ping): every {@code ChildPingInterval} its supervisor
 * sends the child a numbered ping, which the child runs as an ordinary worker task through its
 * {@link WorkerPool} (it waits for a free slot like any request, behind the tasks already
 * pending); that task, and nothing else, records the number as answered. A child whose workers
 * are all stuck therefore never answers, while a busy one answers as soon as any slot comes free.
 * A child that leaves {@code ChildPingMisses} pings in a row unanswered is replaced. The poller
 * watchdog ({@link PollerWatchdog}) sees a stuck poller; this sees stuck workers.
 *
 * <p>One tracker per child, on the supervisor's side: {@link #next} and {@link #overdue} are
 * called by the supervising thread only (the in-JVM supervisor's thread, or the process
 * supervisor's control thread). How the number reaches the child and the answer comes back is
 * the supervisor's: a method call in the same JVM ({@link Child#ping}), or the control pipe down
 * and the shared scoreboard back for a child process, whose engine runs {@link #task}.
 */
public final class ChildPing {
    private final int maxMisses;
    /** The last number sent, 0 before the first. */
    private int sent;
    /** Intervals in a row that ended with the last ping unanswered. */
    private int missed;

    /** @param maxMisses {@code ChildPingMisses}: unanswered pings in a row that condemn the child */
    public ChildPing(int maxMisses) {
        this.maxMisses = maxMisses;
    }

    /** The number of the next ping to send (1, 2, 3 ...). */
    public int next() {
        return ++sent;
    }

    /**
     * One interval has passed since the last ping: counts a miss if it is still unanswered.
     *
     * @param answered the highest number the child has answered (0 if none)
     * @return whether the child has now missed {@code ChildPingMisses} pings in a row
     */
    public boolean overdue(int answered) {
        if (sent == 0 || answered - sent >= 0) {
            missed = 0;
            return false;
        }
        missed++;
        return missed >= maxMisses;
    }

    /** Pings in a row left unanswered so far. */
    public int missed() {
        return missed;
    }

    /**
     * The worker task a child's engine runs for ping {@code number}: on a worker slot, it reports
     * the number to {@code answer} (a volatile store on the caller's side).
     */
    public static WorkerTask task(int number, IntConsumer answer) {
        return new Answer(number, answer);
    }

    /** A class rather than a lambda, like the engine's other tasks (no class spun at first use). */
    private static final class Answer implements WorkerTask {
        private final int number;
        private final IntConsumer answer;

        Answer(int number, IntConsumer answer) {
            this.number = number;
            this.answer = answer;
        }

        @Override
        public void run(int slot) {
            answer.accept(number);
        }
    }
}
