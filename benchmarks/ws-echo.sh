#!/usr/bin/env bash
# WebSocket echo throughput, per server, in one run (see README.md).
#
#   benchmarks/ws-echo.sh                                  # 256 connections, 64-byte text, all four
#   SERVERS="loom netty" ROUNDS=5 SECONDS_PER_RUN=15 benchmarks/ws-echo.sh
#
# Each round starts every server in turn (same JVM flags, pinned to SERVER_CPU) and runs
# org.loommpm.bench.WsEchoClient (its own JVM, pinned to CLIENT_CPU): CONNECTIONS sockets to /ws,
# each sending a SIZE-byte text message and waiting for its echo, WARMUP seconds unmeasured, then
# SECONDS_PER_RUN measured. Rounds interleave the servers; the table gives each server's median
# messages/s and server CPU per message over the rounds, and the ratio to loom in the same run.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom netty jetty helidon"}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-256}
SIZE=${SIZE:-64}
WARMUP=${WARMUP:-5}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
STAMP=$(date +%Y%m%d-%H%M%S)
RES="$BENCH_DIR/results/ws-echo-$STAMP"
mkdir -p "$RES"
ulimit -n 65536 2>/dev/null || true
build_jar
trap stop_server EXIT
trap 'exit 130' INT TERM

{
  echo "servers: $SERVERS; rounds: $ROUNDS (interleaved); connections: $CONNECTIONS; message: $SIZE-byte text"
  echo "warm-up ${WARMUP} s + ${SECONDS_PER_RUN} s measured per run; server core $SERVER_CPU, client core $CLIENT_CPU"
  machine_summary
} | tee "$RES/meta.txt"

for round in $(seq "$ROUNDS"); do
  for server in $SERVERS; do
    port=$(port_of "$server")
    start_server "$server" "$RES/$server-$round-server.log" || { echo "$server failed to start"; continue; }
    line=$(taskset -c "$CLIENT_CPU" "$JAVA" -Xmx512m -cp "$JAR" org.loommpm.bench.WsEchoClient \
      127.0.0.1 "$port" "$CONNECTIONS" "$WARMUP" "$SECONDS_PER_RUN" "$SIZE" "$SERVER_PID" 2>"$RES/$server-$round-client.err" || true)
    stop_server
    echo "round $round $server $line" | tee -a "$RES/raw.txt"
  done
done

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RES/meta.txt"
echo
echo "| server | messages/s (median) | server CPU µs/message (median) | vs loom | runs |"
echo "| --- | ---: | ---: | ---: | --- |"
awk '
function median(str, v, k, i, j, t) {
  k = split(str, v, " ")
  for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
  if (k % 2) return v[(k + 1) / 2]
  return (v[k / 2] + v[k / 2 + 1]) / 2
}
NF >= 5 { if (!($3 in r)) names[++n] = $3; split($4, a, "="); split($5, c, "="); r[$3] = r[$3] " " a[2]; u[$3] = u[$3] " " c[2] }
END { base = median(r["loom"]); for (i = 1; i <= n; i++) { s = names[i]; m = median(r[s]); printf "| %s | %.0f | %.2f | %.2f | %s |\n", s, m, median(u[s]), (base > 0 ? m / base : 0), r[s] } }
' "$RES/raw.txt" | tee "$RES/table.md"
echo "raw: $RES"
