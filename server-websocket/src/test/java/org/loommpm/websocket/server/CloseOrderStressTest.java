package org.loommpm.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Headers;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.IntervalLog;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolCounters;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.frame.Opcode;

/**
 * Issue #18: a message sent from another thread just as the close frame is queued must not
 * follow the close frame. Several threads send in a loop while another closes the socket; the
 * order in which frames reached the socket's outbound queue (the order the wire carries them)
 * must end with the close frame, on every one of many rounds. Without the sender count in the
 * session's state (a sender that saw {@code OPEN} offers after the close frame was put) this
 * fails within a few hundred rounds.
 */
class CloseOrderStressTest {
    private static final int ROUNDS = 500;
    private static final int SENDERS = 3;

    @Test
    void noFrameFollowsTheCloseFrame() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Recorder q = new Recorder();
            WebSocketConnection ws = new WebSocketConnection(new Link(q), new WebSocketHandler() { },
                    null, null, new WebSocketConnection.Origin("/s", null, Map.of(), new Headers()));
            CountDownLatch go = new CountDownLatch(SENDERS);
            AtomicInteger refused = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < SENDERS; i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    go.countDown();
                    while (ws.sendText("message")) {
                        Thread.yield(); // lets the closing thread run on a busy machine
                    }
                    refused.incrementAndGet();
                }));
            }
            go.await();
            ws.close(1000, "bye");
            for (Thread t : threads) {
                t.join();
            }
            List<byte[]> frames = new ArrayList<>(q.frames);
            assertFalse(frames.isEmpty());
            int last = frames.size() - 1;
            for (int i = 0; i < last; i++) {
                assertEquals(Opcode.TEXT, frames.get(i)[0] & 0x0f, "round " + round + ": frame " + i + " of "
                        + frames.size() + " is not a message: a frame followed the close frame");
            }
            assertEquals(Opcode.CLOSE, frames.get(last)[0] & 0x0f, "round " + round + ": the close frame is not last");
            assertEquals(SENDERS, refused.get(), "every sender is refused once the socket closes");
            assertTrue(q.closeRequested, "close() ends the socket after its close frame");
        }
    }

    /** An outbound queue that records the order frames were queued in (unbounded). */
    private static final class Recorder implements OutboundQueue {
        final ConcurrentLinkedQueue<byte[]> frames = new ConcurrentLinkedQueue<>();
        final AtomicLong bytes = new AtomicLong();
        final CompletableFuture<CloseReason> closed = new CompletableFuture<>();
        volatile boolean closeRequested;

        @Override
        public boolean offer(ByteBuffer b) throws IOException {
            put(b);
            return true;
        }

        @Override
        public void put(ByteBuffer b) throws IOException {
            if (closeRequested) {
                throw new ClosedChannelException();
            }
            byte[] a = new byte[b.remaining()];
            b.get(a);
            frames.add(a);
            bytes.addAndGet(a.length);
        }

        @Override
        public long queuedBytes() {
            return bytes.get();
        }

        @Override
        public long limit() {
            return Long.MAX_VALUE;
        }

        @Override
        public CompletableFuture<Void> whenWritable() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<CloseReason> closed() {
            return closed;
        }

        @Override
        public boolean isClosed() {
            return closeRequested;
        }

        @Override
        public void close(CloseReason reason, boolean flushFirst) {
            closeRequested = true;
        }
    }

    /** The socket's link: the recorder, and of the child's services only the counters. */
    private record Link(Recorder q) implements Tunnel {
        private static final ProtocolCounters COUNTERS = new ProtocolCounters();
        private static final InputBudget BUDGET = new InputBudget(Long.MAX_VALUE);
        private static final ServerConfig CONFIG = ServerConfig.builder().build();

        @Override
        public OutboundQueue outbound() {
            return q;
        }

        @Override
        public ChildServices services() {
            return new ChildServices() {
                @Override
                public void dispatch(WorkerTask task) {
                    Thread.ofVirtual().start(() -> task.run(0));
                }

                @Override
                public void dispatchOwner(WorkerTask task) {
                    dispatch(task);
                }

                @Override
                public boolean lend(int slot) {
                    return false;
                }

                @Override
                public int reclaim() {
                    return 0;
                }

                @Override
                public int busyWorkers() {
                    return 0;
                }

                @Override
                public SlotBoard scoreboard() {
                    throw new UnsupportedOperationException("not used by sends");
                }

                @Override
                public void requestDoneWithoutSlot(long bytesSent) {
                }

                @Override
                public boolean isDraining() {
                    return false;
                }

                @Override
                public boolean isStopping() {
                    return false;
                }

                @Override
                public ProtocolCounters counters() {
                    return COUNTERS;
                }

                @Override
                public InputBudget inputBudget() {
                    return BUDGET;
                }

                @Override
                public IntervalLog intervalLog() {
                    throw new UnsupportedOperationException("not used by sends");
                }

                @Override
                public org.loommpm.spi.ClientCharges charges() {
                    return org.loommpm.spi.ClientCharges.OFF;
                }
            };
        }

        @Override
        public long id() {
            return 1;
        }

        @Override
        public boolean isSecure() {
            return false;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }

        @Override
        public ServerConfig config() {
            return CONFIG;
        }
    }
}
