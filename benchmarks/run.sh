#!/usr/bin/env bash
# Side-by-side plaintext load test of loom-mpm, Helidon, Jetty and Netty (see README.md).
#
#   benchmarks/run.sh                                      # full run: 4 servers x 4 workloads x 3 rounds
#   SERVERS="loom helidon" ROUNDS=1 DURATION=5 WORKLOADS="a c" benchmarks/run.sh   # quick run
#
# Environment: SERVERS (loom helidon jetty netty), ROUNDS (3), DURATION (10 s measured),
# WARMUP (5 s), WORKLOADS (a b c d), JVM_FLAGS, SERVER_CPU (0), CLIENT_CPU (1), PORT_BASE (18080),
# BUILD=1 to rebuild the jar, OUT (docs/benchmarks/results-DATE.md).
# Workloads: a = keep-alive -c50; b = keep-alive -c256; c = Connection: close -c50;
#            d = pipelined depth 16, -c256. All wrk -t1 --latency against GET /plaintext.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom helidon jetty netty"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
WORKLOADS=${WORKLOADS:-"a b c d"}
DATE=$(date +%F)
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/results-$DATE.md"}
RES="$BENCH_DIR/results/$STAMP"
mkdir -p "$RES/wrk" "$RES/warmup" "$RES/logs"
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

build_jar
trap 'stop_server' EXIT
trap 'exit 130' INT TERM

WRK_ARGS=()
wrk_args() {  # wrk_args WORKLOAD DURATION PORT: sets WRK_ARGS
  local url="http://127.0.0.1:$3/plaintext"
  case "$1" in
    a) WRK_ARGS=(-t1 -c50 "-d$2s" --latency "$url") ;;
    b) WRK_ARGS=(-t1 -c256 "-d$2s" --latency "$url") ;;
    c) WRK_ARGS=(-t1 -c50 "-d$2s" --latency -H 'Connection: close' "$url") ;;
    d) WRK_ARGS=(-t1 -c256 "-d$2s" --latency -s "$BENCH_DIR/pipeline.lua" "$url" -- 16) ;;
    *) echo "unknown workload $1" >&2; return 1 ;;
  esac
}

# Kernel TCP counters (whole machine, so other processes' traffic counts too), for diagnosis:
# listen-queue overflows, SYN retransmits, TIME_WAIT reuse, resets.
tcp_counters() {
  if command -v nstat >/dev/null; then
    nstat -az 2>/dev/null | awk '$1 ~ /ListenOverflows|ListenDrops|TCPSynRetrans|TWRecycled|TcpExtTW$|EstabResets|AbortOn|OutRsts|TCPTimeWaitOverflow/ {print $1, $2}'
  fi
}
tcp_delta() {  # stdin: counters after; $1: counters before
  awk 'NR == FNR {b[$1] = $2; next} {d = $2 - b[$1]; if (d != 0) s = s " " $1 "=" d}
       END {print "# kernel TCP counter deltas (machine-wide):" (s == "" ? " none" : s)}' "$1" -
}

{
  echo "date: $DATE"
  echo "servers: $SERVERS"
  echo "workloads: $WORKLOADS"
  echo "rounds: $ROUNDS (servers interleaved within each round; a fresh JVM per server per round)"
  echo "per workload: ${WARMUP} s wrk warm-up (discarded), then ${DURATION} s measured"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  machine_summary
} >"$RES/meta.txt"
cat "$RES/meta.txt"

for round in $(seq "$ROUNDS"); do
  for server in $SERVERS; do
    port=$(port_of "$server")
    echo "== round $round/$ROUNDS: $server (port $port)"
    if ! start_server "$server" "$RES/logs/${server}_r$round.log"; then
      echo "   $server failed to start; skipped this round" >&2
      continue
    fi
    for w in $WORKLOADS; do
      wrk_args "$w" "$WARMUP" "$port"
      taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" >"$RES/warmup/${w}_${server}_r$round.txt" 2>&1 || true
      wrk_args "$w" "$DURATION" "$port"
      f="$RES/wrk/${w}_${server}_r$round.txt"
      printf '# wrk' >"$f"; printf " '%s'" "${WRK_ARGS[@]}" >>"$f"; echo >>"$f"
      tcp_counters >"$RES/nstat.before"
      taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" >>"$f" 2>&1 || echo "   wrk exited non-zero" >&2
      tcp_counters | tcp_delta "$RES/nstat.before" >>"$f"
      printf '   %s: %s req/s %s\n' "$w" "$(sed -n 's/^Requests\/sec:\s*//p' "$f")" \
        "$(grep -E 'Socket errors|Non-2xx' "$f" | tr -s ' ' | tr '\n' ' ')"
      if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "   $server died during workload $w" >&2
        break
      fi
    done
    stop_server
  done
done

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/meta.txt"
"$JAVA" -cp "$JAR" org.loommpm.bench.Report "$RES" "$OUT" >/dev/null
echo "results: $OUT (raw: $RES)"
