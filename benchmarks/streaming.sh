#!/usr/bin/env bash
# Long-lived responses (loom only; see docs/streaming.md and docs/benchmarks.md):
#
#   benchmarks/streaming.sh              # both
#   RUNS="sse" N_SSE=10000 benchmarks/streaming.sh
#   RUNS="longpoll" N_POLL=19500 THREADS=256 benchmarks/streaming.sh
#   BENCH_JAR=/tmp/other.jar RUNS=sse benchmarks/streaming.sh   # another build (an A/B)
#
# sse: the server (pinned to SERVER_CPU) streams /events (an event every 100 ms to every
#   subscriber); org.loommpm.bench.SseSubscribers (its own JVM, pinned to CLIENT_CPU) opens N_SSE
#   streams, warms up WARM s, then measures MEASURE s: events received vs expected, delivery
#   latency percentiles, the server's CPU.
# longpoll: the server (ThreadsPerChild THREADS) holds N_POLL suspended /poll requests while
#   org.loommpm.bench.LongPollLoad's PROBES connections each send GET /plaintext at RATE/s for
#   MEASURE s: probe latency percentiles (from the scheduled send time), errors, and the server's
#   own counts (suspended, busy workers, threads). Each round measures the probes twice, with 0
#   and with N_POLL polls held (a fresh server each), so the cost of the held polls is a ratio
#   taken in the same run on the same noisy machine.
# ROUNDS rounds, interleaved.
# Each side holds one socket per stream or poll: the script raises `ulimit -n` as far as its
# shell allows (a container's hard limit may cap it: N_POLL defaults to 19500 so that it fits
# a hard limit of 20000).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

RUNS=${RUNS:-"sse longpoll"}
ROUNDS=${ROUNDS:-1}
JAR=${BENCH_JAR:-$JAR}
N_SSE=${N_SSE:-10000}
N_POLL=${N_POLL:-19500}
THREADS=${THREADS:-256}
PROBES=${PROBES:-4}
RATE=${RATE:-250}
WARM=${WARM:-10}
MEASURE=${MEASURE:-30}
STAMP=$(date +%Y%m%d-%H%M%S)
RES="$BENCH_DIR/results/streaming-$STAMP"
mkdir -p "$RES"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "ulimit -n: $(ulimit -n)"

build_jar
trap stop_server EXIT
trap 'exit 130' INT TERM
machine_summary >"$RES/meta.txt" 2>/dev/null || true

for round in $(seq "$ROUNDS"); do
for run in $RUNS; do
  port=$(port_of loom)
  case "$run" in
    sse)
      LOOM_THREADS=$THREADS start_server loom "$RES/server-sse-$round.log"
      echo "== round $round sse: $N_SSE subscribers, an event every 100 ms, warm $WARM s, measure $MEASURE s"
      taskset -c "$CLIENT_CPU" "$JAVA" -Xmx1g -cp "$JAR" org.loommpm.bench.SseSubscribers \
        127.0.0.1 "$port" "$N_SSE" "$WARM" "$MEASURE" "$SERVER_PID" | tee "$RES/sse-$round.txt"
      stop_server
      ;;
    longpoll)
      for n in 0 "$N_POLL"; do
        LOOM_THREADS=$THREADS start_server loom "$RES/server-longpoll-$n-$round.log"
        echo "== round $round longpoll: $n suspended, ThreadsPerChild $THREADS, $PROBES probes x $RATE req/s, warm $WARM s, measure $MEASURE s"
        # The probes' warm-up (JIT) first, then the measured run.
        taskset -c "$CLIENT_CPU" "$JAVA" -Xmx1g -cp "$JAR" org.loommpm.bench.LongPollLoad \
          127.0.0.1 "$port" 0 "$PROBES" "$RATE" "$WARM" "$SERVER_PID" >/dev/null
        taskset -c "$CLIENT_CPU" "$JAVA" -Xmx1g -cp "$JAR" org.loommpm.bench.LongPollLoad \
          127.0.0.1 "$port" "$n" "$PROBES" "$RATE" "$MEASURE" "$SERVER_PID" | tee "$RES/longpoll-$n-$round.txt"
        stop_server
      done
      ;;
    *) echo "unknown run $run (sse, longpoll)" >&2; exit 2 ;;
  esac
done
done
echo "raw results: $RES"
