#!/usr/bin/env bash
# HTTP/2 (h2c) load on loom-mpm's plaintext app: h2load -n N -c C -m M, with the server pinned to
# SERVER_CPU and h2load to CLIENT_CPU. Prints h2load's summary, the server's CPU time per request
# (utime+stime from /proc/PID/stat over the run, divided by requests: robust to a noisy machine)
# and the worker slots busy during the run (sampled from /server-status?auto every 200 ms).
#
#   nice benchmarks/h2load.sh                  # -n 200000 -c 16 -m 32
#   N=50000 C=10 M=50 benchmarks/h2load.sh     (WARM: warm-up requests first, default 200000)
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
N=${N:-200000}
C=${C:-16}
M=${M:-32}
WARM=${WARM:-200000}
SERVER=${SERVER:-loom}
command -v h2load >/dev/null || { echo "h2load not found (apt-get install nghttp2-client)" >&2; exit 1; }
build_jar
trap 'stop_server' EXIT
LOG=$(mktemp)
start_server "$SERVER" "$LOG"
PORT=$(port_of "$SERVER")
URL="http://127.0.0.1:$PORT/plaintext"
taskset -c "$CLIENT_CPU" h2load -n "$WARM" -c "$C" -m "$M" "$URL" >/dev/null
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }
HZ=$(getconf CLK_TCK)
SAMPLES=$(mktemp)
(
  while :; do
    curl -s "http://127.0.0.1:$PORT/server-status?auto" 2>/dev/null \
      | awk -F': ' '/^BusyWorkers/{b=$2} /^LoomPendingWorkers/{p=$2} END{if (b != "") print b, p}'
    sleep 0.2
  done
) >"$SAMPLES" 2>/dev/null &
SAMPLER=$!
before=$(cpu_ticks)
OUT=$(taskset -c "$CLIENT_CPU" h2load -n "$N" -c "$C" -m "$M" "$URL")
after=$(cpu_ticks)
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
echo "$OUT" | grep -E '^finished|^requests|^status codes'
done_requests=$(echo "$OUT" | sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p')
awk -v t=$((after - before)) -v hz="$HZ" -v n="$done_requests" \
  'BEGIN{printf "server CPU: %.2f s, %.2f us per request\n", t / hz, t / hz * 1e6 / n}'
awk '{b += $1; p += $2; if ($1 > mb) mb = $1; n++} END{if (n) printf "busy worker slots: mean %.1f, max %d; pending mean %.1f (%d samples)\n", b / n, mb, p / n, n}' "$SAMPLES"
rm -f "$SAMPLES" "$LOG"
