#!/usr/bin/env bash
# Where a server's CPU goes per request at a fixed rate (see README.md).
#
#   nice -n -15 benchmarks/census.sh loom                  # 50,000 req/s, 50 connections
#   RATE=10000 SYSCALLS=1 nice -n -15 benchmarks/census.sh netty-noleak
#
# The server starts as in run.sh (pinned to SERVER_CPU, same JVM flags; JVM_FLAGS adds to them),
# gets WARMUP s of wrk -c50 and the JIT settling run.sh gives (settle_jit), then OpenLoop offers RATE req/s on 50 connections for WINDOW + 5 s;
# over WINDOW s in the middle of it, from /proc: the server's user and system CPU time and the
# voluntary and involuntary context switches of all its threads, each per request offered.
# SYSCALLS=1 also counts every system call the server makes (perf stat on the
# syscalls:sys_enter_* tracepoints, which themselves add to the system time it reports);
# PROFILE=1 instead records its kernel and user stacks (perf record -g, cpu-clock) into
# benchmarks/results/census-STAMP/perf.data for `perf report`.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

server=${1:?usage: census.sh SERVER}
RATE=${RATE:-50000}
WARMUP=${WARMUP:-15}
WINDOW=${WINDOW:-5}
RES="$BENCH_DIR/results/census-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$RES"
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
if [ "${SYSCALLS:-0}" = 1 ] || [ "${PROFILE:-0}" = 1 ]; then
  command -v perf >/dev/null || { echo "perf not found (apt-get install linux-perf)" >&2; exit 1; }
fi

build_jar
trap 'stop_server; remove_quota_cgroup' EXIT
port=$(port_of "$server")
start_server "$server" "$RES/server.log"
warm_wrk a "$WARMUP" "$port" "$RES/warmup.txt" >/dev/null

user_system_ticks() { sed 's/.*) //' "/proc/$SERVER_PID/stat" | awk '{print $12, $13}'; }
switches() { cat /proc/"$SERVER_PID"/task/*/status | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v, n}'; }

taskset -c "$CLIENT_CPU" "$JAVA" -cp "$JAR" org.loommpm.bench.OpenLoop --port "$port" --connections 50 \
  --warmup 2 rate "$RATE" --seconds $((WINDOW + 3)) >"$RES/openloop.txt" &
client=$!
sleep 3
c0=$(user_system_ticks); s0=$(switches)
if [ "${SYSCALLS:-0}" = 1 ]; then
  perf stat -x, -e 'syscalls:sys_enter_*' -p "$SERVER_PID" -o "$RES/syscalls.csv" -- sleep "$WINDOW"
elif [ "${PROFILE:-0}" = 1 ]; then
  perf record -q -e cpu-clock -F 4999 -g -p "$SERVER_PID" -o "$RES/perf.data" -- sleep "$WINDOW" 2>/dev/null
else
  sleep "$WINDOW"
fi
c1=$(user_system_ticks); s1=$(switches)
wait "$client"

n=$((RATE * WINDOW))
hz=$(getconf CLK_TCK)
echo "$server at $RATE req/s ($(grep -o 'achieved_rps=[0-9]*' "$RES/openloop.txt" | head -1)):"
echo "$c0 $c1 $s0 $s1" | awk -v n="$n" -v hz="$hz" '{
  printf "  CPU %.2f us/req (user %.2f, system %.2f); context switches per request: voluntary %.3f, involuntary %.3f\n",
    ($3 + $4 - $1 - $2) * 1e6 / hz / n, ($3 - $1) * 1e6 / hz / n, ($4 - $2) * 1e6 / hz / n, ($7 - $5) / n, ($8 - $6) / n }'
if [ -f "$RES/syscalls.csv" ]; then
  awk -F, -v n="$n" '$1 + 0 > 0 {sub(/^syscalls:sys_enter_/, "", $3); printf "  %-24s %8.3f per request\n", $3, $1 / n}' \
    "$RES/syscalls.csv" | sort -k2 -rn | head -12
fi
echo "raw: $RES"
