#!/usr/bin/env bash
# A/B of two bench jars (the loom app) for a refactor that must not change performance: in
# interleaved rounds, each jar in a fresh JVM pinned to SERVER_CPU (clients on CLIENT_CPU), warmed
# by WARMUP s (8) of wrk -c50, then OpenLoop at a fixed RATE on 50 HTTP/1.1 connections (server CPU per
# request) and h2load -n 200000 -c 16 -m 32 on h2c (req/s, server CPU per request from /proc).
#
#   benchmarks/ab.sh BEFORE.jar AFTER.jar          # ROUNDS=3 RATE=20000
set -uo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
A=$1 B=$2
ROUNDS=${ROUNDS:-3}
RATE=${RATE:-20000}
WARMUP=${WARMUP:-8}
PORT=$((PORT_BASE + 400))
command -v h2load >/dev/null || { echo "h2load not found (apt-get install nghttp2-client)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
HZ=$(getconf CLK_TCK)
LOG=$(mktemp)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for r in $(seq "$ROUNDS"); do
  for name in A B; do
    jar=${!name}
    # shellcheck disable=SC2086
    taskset -c "$SERVER_CPU" "$JAVA" $JVM_FLAGS -jar "$jar" "$PORT" loom >"$LOG" 2>&1 &
    pid=$!
    for _ in $(seq 300); do grep -q '^READY' "$LOG" && break; sleep 0.1; done
    taskset -c "$CLIENT_CPU" wrk -t1 -c50 "-d${WARMUP}s" "http://127.0.0.1:$PORT/plaintext" >/dev/null 2>&1
    ol=$(taskset -c "$CLIENT_CPU" "$JAVA" -Xms512m -Xmx512m -XX:+UseParallelGC -cp "$jar" org.loommpm.bench.OpenLoop \
      --port "$PORT" --server-pid "$pid" --connections 50 rate "$RATE" --seconds 10 2>&1 \
      | grep '^RESULT' | grep -o 'achieved_rps=[^ ]*\|server_cpu_us_per_req=[^ ]*' | tr '\n' ' ')
    taskset -c "$CLIENT_CPU" h2load -n 100000 -c 16 -m 32 "http://127.0.0.1:$PORT/plaintext" >/dev/null 2>&1
    c0=$(cpu "$pid")
    rps=$(taskset -c "$CLIENT_CPU" h2load -n 200000 -c 16 -m 32 "http://127.0.0.1:$PORT/plaintext" 2>&1 \
      | grep -o '[0-9.]* req/s' | head -1)
    c1=$(cpu "$pid")
    us=$(awk -v a="$c0" -v b="$c1" -v hz="$HZ" 'BEGIN { printf "%.2f", (b - a) / hz * 1e6 / 200000 }')
    echo "round $r $name | h1 fixed rate: $ol| h2c m32: $rps server_cpu_us_per_req=$us | load $(cut -d' ' -f1 /proc/loadavg)"
    kill "$pid"
    wait "$pid" 2>/dev/null
  done
done
rm -f "$LOG"
