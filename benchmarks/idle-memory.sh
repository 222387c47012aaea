#!/usr/bin/env bash
# Memory per idle keep-alive connection, per server (see README.md).
#
#   benchmarks/idle-memory.sh                                # 10000 connections, all four servers
#   SERVERS="loom helidon" N=10000 benchmarks/idle-memory.sh
#   MODE=ws N=50000 benchmarks/idle-memory.sh               # idle WebSockets (/ws) instead
#   MODE=ws-h2 SERVERS=loom N=10000 benchmarks/idle-memory.sh # idle WebSockets over HTTP/2 streams
#
# For each server: start it (same JVM flags as run.sh, pinned to SERVER_CPU); the client
# (org.loommpm.bench.IdleConnections, its own JVM on CLIENT_CPU) opens N connections, sends one
# GET on each, reads the response, and closes them all (warm-up, so JIT code, pools and eden
# high-water marks are reached before the baseline); then BASELINE is measured with 0
# connections; then the client opens N connections again the same way and holds them idle;
# then LOADED is measured. Each measurement: `jcmd PID GC.run`, a 2 s pause, then the live heap
# (`jcmd PID GC.class_histogram` total, which itself runs a full GC first), `GC.heap_info`
# (kept in the raw output), and VmRSS from /proc/PID/status. Reports (LOADED-BASELINE)/N.
# Every server's idle timeout is 300 s (loom: KeepAliveTimeout), far longer than a run.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom helidon jetty netty undertow"}
N=${N:-10000}
MODE=${MODE:-http}   # http: idle keep-alive connections; ws: idle WebSockets; ws-h2: idle WebSockets over HTTP/2 (loom only)
SETTLE=${SETTLE:-2}
DATE=$(date +%F)
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/idle-memory$([ "$MODE" != http ] && echo "-$MODE")-$DATE.md"}
RES="$BENCH_DIR/results/idle-$STAMP"
mkdir -p "$RES"
# Server and client each hold N sockets.
ulimit -n $((N + 16384)) 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" -lt $((N + 1000)) ]; then
  echo "ulimit -n is $(ulimit -n): too low for N=$N" >&2; exit 1
fi

build_jar
CLIENT_PID=""
cleanup() {
  if [ -n "$CLIENT_PID" ]; then kill -TERM "$CLIENT_PID" 2>/dev/null || true; wait "$CLIENT_PID" 2>/dev/null || true; fi
  stop_server
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_file() {  # wait_file PATH SECONDS: 0 when it appears, 1 if the client died or time ran out
  local i
  for i in $(seq $(($2 * 10))); do
    [ -f "$1" ] && return 0
    kill -0 "$CLIENT_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# measure PID LABEL FILE: appends the raw jcmd output to FILE; prints "heap_bytes rss_bytes threads".
measure() {
  local pid=$1 label=$2 file=$3 heap rss threads
  {
    echo "### $label"
    "$JCMD" "$pid" GC.run
    sleep "$SETTLE"
    "$JCMD" "$pid" GC.heap_info
  } >>"$file" 2>&1
  heap=$("$JCMD" "$pid" GC.class_histogram 2>>"$file" | tee -a "$file.histo-$label" | awk '$1 == "Total" {print $3}')
  rss=$(awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$pid/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")
  echo "VmRSS $rss Threads $threads heap(histogram) $heap" >>"$file"
  echo "$heap $rss $threads"
}

{
  echo "date: $DATE"
  echo "servers: $SERVERS"
  if [ "$MODE" = ws ]; then
    echo "connections (N): $N idle WebSockets (/ws), one handshake answered 101 on each"
  elif [ "$MODE" = ws-h2 ]; then
    echo "sockets (N): $N idle WebSockets over HTTP/2 (RFC 8441): h2c connections of 100 extended CONNECT streams to /ws, each answered 200"
  else
    echo "connections (N): $N idle keep-alive connections, one GET answered on each"
  fi
  echo "client: org.loommpm.bench.IdleConnections in its own JVM (-Xmx512m), core $CLIENT_CPU"
  machine_summary
} >"$RES/meta.txt"
cat "$RES/meta.txt"

ROWS=()
for server in $SERVERS; do
  port=$(port_of "$server")
  echo "== $server (port $port)"
  raw="$RES/$server.txt"
  if ! start_server "$server" "$RES/${server}-server.log"; then
    ROWS+=("| $server | failed to start | | | | | | |"); continue
  fi
  ctl="$RES/ctl-$server"; mkdir -p "$ctl"
  taskset -c "$CLIENT_CPU" "$JAVA" -Xmx512m -cp "$JAR" org.loommpm.bench.IdleConnections \
    127.0.0.1 "$port" "$N" "$ctl" $([ "$MODE" != http ] && echo "$MODE") >"$RES/${server}-client.log" 2>&1 &
  CLIENT_PID=$!
  if ! wait_file "$ctl/warm" 300; then
    echo "   client failed during warm-up:" >&2; tail -5 "$RES/${server}-client.log" >&2
    ROWS+=("| $server | client failed (warm-up) | | | | | | |"); cleanup; CLIENT_PID=""; continue
  fi
  sleep "$SETTLE"
  read -r h0 r0 t0 < <(measure "$SERVER_PID" baseline "$raw")
  touch "$ctl/go"
  if ! wait_file "$ctl/open" 300; then
    echo "   client failed while opening:" >&2; tail -5 "$RES/${server}-client.log" >&2
    ROWS+=("| $server | client failed | | | | | | |"); cleanup; CLIENT_PID=""; continue
  fi
  sleep "$SETTLE"
  established=$(ss -Htn state established "( sport = :$port )" | wc -l)
  read -r h1 r1 t1 < <(measure "$SERVER_PID" loaded "$raw")
  touch "$ctl/stop"
  wait "$CLIENT_PID" || echo "   client exited non-zero" >&2
  CLIENT_PID=""
  cat "$RES/${server}-client.log"
  stop_server
  row=$(awk -v s="$server" -v e="$established" -v h0="$h0" -v h1="$h1" -v r0="$r0" -v r1="$r1" \
    -v t0="$t0" -v t1="$t1" -v n="$N" 'BEGIN {
      printf "| %s | %d | %.1f | %.1f | %.0f | %.0f | %d → %d | %.1f → %.1f |", s, e,
        h0 / 1048576, h1 / 1048576, (h1 - h0) / n, (r1 - r0) / n, t0, t1, r0 / 1048576, r1 / 1048576 }')
  echo "$row"
  ROWS+=("$row")
done

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/meta.txt"
{
  case "$MODE" in
    ws) echo "# Idle WebSocket memory, $DATE" ;;
    ws-h2) echo "# Idle WebSocket-over-HTTP/2 memory, $DATE (per socket = per stream; established = connections)" ;;
    *) echo "# Idle keep-alive connection memory, $DATE" ;;
  esac
  echo
  echo "Produced by \`benchmarks/idle-memory.sh\` (raw jcmd outputs: \`benchmarks/results/$(basename "$RES")/\`, not committed)."
  echo
  echo "| setting | value |"
  echo "| --- | --- |"
  sed 's/^\([^:]*\): \(.*\)$/| \1 | \2 |/' "$RES/meta.txt"
  echo
  echo "Heap = live objects after a full GC (\`jcmd GC.class_histogram\` total); RSS = VmRSS. Per-connection"
  echo "figures are (loaded − baseline) / N; the baseline is taken with 0 connections after a warm-up"
  echo "cycle of N connections opened, answered and closed. RSS also moves with heap pages first"
  echo "touched between the two measurements, so the heap column is the more precise one; RSS"
  echo "catches off-heap memory (direct buffers, native stacks of platform threads)."
  echo
  echo "| server | established | heap MiB baseline | heap MiB loaded | heap B/conn | RSS B/conn | threads | RSS MiB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf '%s\n' "${ROWS[@]}"
} >"$OUT"
echo "results: $OUT (raw: $RES)"
