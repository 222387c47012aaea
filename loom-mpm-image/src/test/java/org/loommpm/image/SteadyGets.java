package org.loommpm.image;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * GETs of one URL at a steady rate, each sent when its turn comes whether or not the ones before
 * were answered (at most {@link #MAX_IN_FLIGHT} at once: a turn with none free is counted as not
 * sent), each bounded by a timeout; every outcome is kept with its start and end.
 */
final class SteadyGets implements AutoCloseable {
    static final int MAX_IN_FLIGHT = 200;
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** One GET: its status (0 when none came: then {@code error} says why) and body. */
    record Outcome(long start, long end, int status, String body, String error) {
        boolean failed() {
            return status != 200;
        }

        long millis() {
            return (end - start) / 1_000_000;
        }

        String failure() {
            return status != 0 ? Integer.toString(status) : error;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final HttpRequest request;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("steady-gets").unstarted(r));
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final List<Outcome> outcomes = new ArrayList<>();
    private final AtomicInteger notSent = new AtomicInteger();

    SteadyGets(URI uri, int perSecond) {
        request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).build();
        timer.scheduleAtFixedRate(this::send, 0, 1_000_000 / perSecond, TimeUnit.MICROSECONDS);
    }

    private void send() {
        if (!inFlight.tryAcquire()) {
            notSent.incrementAndGet();
            return;
        }
        long start = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            Outcome o = r != null ? new Outcome(start, System.nanoTime(), r.statusCode(), r.body().strip(), null)
                    : new Outcome(start, System.nanoTime(), 0, null, String.valueOf(e));
            synchronized (outcomes) {
                outcomes.add(o);
            }
            inFlight.release();
        });
    }

    /** The outcomes of the GETs started in [from, to), those still in flight left out. */
    List<Outcome> startedBetween(long from, long to) {
        synchronized (outcomes) {
            return outcomes.stream().filter(o -> o.start - from >= 0 && o.start - to < 0).toList();
        }
    }

    /** When the first GET started at or after {@code from} that {@code body} answered ended, or -1. */
    long firstServedBy(String body, long from) {
        synchronized (outcomes) {
            return outcomes.stream().filter(o -> o.start - from >= 0 && body.equals(o.body)).mapToLong(Outcome::end)
                    .min().orElse(-1);
        }
    }

    int notSent() {
        return notSent.get();
    }

    /** Stops sending and waits (bounded) for the GETs in flight. */
    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
        if (inFlight.tryAcquire(MAX_IN_FLIGHT, TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
            inFlight.release(MAX_IN_FLIGHT);
        }
        http.close();
    }
}
