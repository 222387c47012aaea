#!/usr/bin/env bash
# Idle WebSockets served by loom-mpm.jar itself: ChildProcesses On, the benchmark's routes loaded
# with LoadApplication (org.loommpm.bench.BenchApplication, /ws echo), N idle WebSockets opened
# by several client JVMs. Every process here (each child, each client) stays under the
# container's per-process open-file limit (ulimit -Hn), which one process holding N sockets
# would not.
#
#   N=50000 CLIENTS=3 CHILDREN=4 benchmarks/idle-ws-children.sh
#
# Clients: org.loommpm.bench.IdleConnections (as idle-memory.sh MODE=ws), client k connecting to
# the server's k-th Listen port (PORT+k-1), so the kernel may reuse an ephemeral port once per
# destination and no client runs out of them (binding distinct source addresses instead makes
# every bind(addr, 0) search the port space: tens of ms per socket at 40,000); each opens
# N/CLIENTS sockets, answers 101, resets them (warm-up), waits, then opens them again and holds
# them idle. Per child process: `jcmd GC.run`, then the live heap (`GC.class_histogram` total,
# after its own full GC), Threads and VmRSS from /proc, at the baseline (0 sockets, after the
# warm-up) and loaded. Reports the sum over the children of (loaded - baseline) / N.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

N=${N:-50000}
CLIENTS=${CLIENTS:-3}
CHILDREN=${CHILDREN:-4}
PORT=${PORT:-18090}
SETTLE=${SETTLE:-2}
DATE=$(date +%F)
STAMP=$(date +%Y%m%d-%H%M%S)
SERVER_JAR="$ROOT_DIR/server-cli/target/loom-mpm.jar"
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/idle-ws-children-$DATE.md"}
RES="$BENCH_DIR/results/idle-ws-children-$STAMP"
mkdir -p "$RES"

ulimit -n "$(ulimit -Hn)"
PER_CLIENT=$(( (N + CLIENTS - 1) / CLIENTS ))
if [ $((PER_CLIENT + 500)) -gt "$(ulimit -n)" ] || [ $((N / CHILDREN * 11 / 10 + 500)) -gt "$(ulimit -n)" ]; then
  echo "ulimit -n is $(ulimit -n): too low for $PER_CLIENT sockets per client or $((N / CHILDREN)) per child;" \
    "raise CLIENTS or CHILDREN" >&2
  exit 1
fi
build_jars "$SERVER_JAR" -o

{ for k in $(seq "$CLIENTS"); do echo "Listen 127.0.0.1:$((PORT + k - 1))"; done; } >"$RES/loom.conf"
cat >>"$RES/loom.conf" <<CONF
ChildProcesses On
StartServers $CHILDREN
KeepAliveTimeout 300
WebSocketIdleTimeout 10mi
ErrorLog $RES/error.log
CustomLog /dev/null common
LoadApplication bench org.loommpm.bench.BenchApplication $JAR
<Location />
    SetHandler bench
    Require ip 127.0.0.0/8
</Location>
CONF

SERVER_PID=""
CLIENT_PIDS=()
cleanup() {
  local p
  for p in "${CLIENT_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${CLIENT_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  CLIENT_PIDS=()
  stop_server
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck disable=SC2086
taskset -c "$SERVER_CPU" "$JAVA" $JVM_FLAGS -jar "$SERVER_JAR" -f "$RES/loom.conf" >"$RES/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do
  grep -q "listening on" "$RES/server.out" && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$RES/server.out" >&2; exit 1; }
  sleep 0.1
done
children() { ps -o pid= --ppid "$SERVER_PID" | tr -d ' '; }
for _ in $(seq 300); do
  [ "$(children | wc -l)" -ge "$CHILDREN" ] && break
  sleep 0.1
done
sleep 3  # the children bind and load the application
mapfile -t KIDS < <(children)
echo "supervisor $SERVER_PID, children ${KIDS[*]}"

# measure PID LABEL: prints "heap_bytes rss_bytes threads" of one process (raw output kept in RES).
measure() {
  local pid=$1 label=$2 raw="$RES/child-$1.txt" heap rss threads
  { echo "### $label"; "$JCMD" "$pid" GC.run; sleep "$SETTLE"; "$JCMD" "$pid" GC.heap_info; } >>"$raw" 2>&1
  heap=$("$JCMD" "$pid" GC.class_histogram 2>>"$raw" | tee "$raw.histo-$label" | awk '$1 == "Total" {print $3}')
  rss=$(awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$pid/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")
  echo "VmRSS $rss Threads $threads heap(histogram) $heap" >>"$raw"
  echo "$heap $rss $threads"
}

for k in $(seq "$CLIENTS"); do
  mkdir -p "$RES/ctl-$k"
  taskset -c "$CLIENT_CPU" "$JAVA" -Xmx512m -cp "$JAR" org.loommpm.bench.IdleConnections \
    127.0.0.1 "$((PORT + k - 1))" "$PER_CLIENT" "$RES/ctl-$k" ws >"$RES/client-$k.log" 2>&1 &
  CLIENT_PIDS+=($!)
done
wait_all() {  # wait_all FILE SECONDS: every client wrote ctl-k/FILE
  local k t
  for t in $(seq $(($2 * 10))); do
    local all=1
    for k in $(seq "$CLIENTS"); do
      [ -f "$RES/ctl-$k/$1" ] || all=0
      kill -0 "${CLIENT_PIDS[$((k - 1))]}" 2>/dev/null || [ -f "$RES/ctl-$k/$1" ] || { tail -3 "$RES/client-$k.log" >&2; return 1; }
    done
    [ "$all" = 1 ] && return 0
    sleep 0.1
  done
  return 1
}
wait_all warm 600 || { echo "a client failed during warm-up" >&2; exit 1; }
sleep "$SETTLE"
declare -A H0 R0 T0 H1 R1 T1
for p in "${KIDS[@]}"; do read -r H0[$p] R0[$p] T0[$p] < <(measure "$p" baseline); done
for k in $(seq "$CLIENTS"); do touch "$RES/ctl-$k/go"; done
wait_all open 900 || { echo "a client failed while opening" >&2; exit 1; }
sleep "$SETTLE"
established=$(ss -Htn state established "( sport >= :$PORT and sport < :$((PORT + CLIENTS)) )" | wc -l)
for p in "${KIDS[@]}"; do
  read -r H1[$p] R1[$p] T1[$p] < <(measure "$p" loaded)
  echo "child $p: $(ss -Htnp state established "( sport >= :$PORT and sport < :$((PORT + CLIENTS)) )" 2>/dev/null \
    | grep -c "pid=$p," || true) sockets" >>"$RES/meta.txt"
done
opened=0
for k in $(seq "$CLIENTS"); do opened=$((opened + $(cat "$RES/ctl-$k/open"))); done
for k in $(seq "$CLIENTS"); do touch "$RES/ctl-$k/stop"; done
for p in "${CLIENT_PIDS[@]}"; do wait "$p" || echo "a client exited non-zero" >&2; done
CLIENT_PIDS=()
cat "$RES"/client-*.log

ROWS=()
dh=0; dr=0
for p in "${KIDS[@]}"; do
  ROWS+=("$(awk -v p="$p" -v h0="${H0[$p]}" -v h1="${H1[$p]}" -v r0="${R0[$p]}" -v r1="${R1[$p]}" -v t0="${T0[$p]}" \
    -v t1="${T1[$p]}" 'BEGIN { printf "| child %s | %.1f → %.1f | %.1f → %.1f | %d → %d |", p, h0 / 1048576, h1 / 1048576,
      r0 / 1048576, r1 / 1048576, t0, t1 }')")
  dh=$((dh + H1[$p] - H0[$p])); dr=$((dr + R1[$p] - R0[$p]))
done
{
  echo "# Idle WebSockets on loom-mpm.jar with process children, $DATE"
  echo
  echo "Produced by \`N=$N CLIENTS=$CLIENTS CHILDREN=$CHILDREN benchmarks/idle-ws-children.sh\` (raw jcmd outputs:"
  echo "\`benchmarks/results/$(basename "$RES")/\`, not committed). Configuration: \`ChildProcesses On\`,"
  echo "\`StartServers $CHILDREN\`, \`LoadApplication bench org.loommpm.bench.BenchApplication\`, \`/ws\` under"
  echo "\`<Location />\` with \`Require ip 127.0.0.0/8\`, one \`Listen\` port per client; $CLIENTS client JVMs of"
  echo "$PER_CLIENT sockets each, on core $CLIENT_CPU; the server (supervisor and children) on core $SERVER_CPU."
  echo
  echo "- sockets opened (101 received): $opened; established on the server port at measurement: $established"
  echo "- heap per socket, all children: $((dh / opened)) B (live heap after a full GC, loaded − baseline, summed over the children, / sockets)"
  echo "- RSS per socket, all children: $((dr / opened)) B"
  echo "- per-process open-file limit (ulimit -Hn): $(ulimit -Hn); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  machine_summary | sed 's/^/- /'
  sed 's/^/- /' "$RES/meta.txt"
  echo
  echo "| process | heap MiB | RSS MiB | threads |"
  echo "| --- | ---: | ---: | ---: |"
  printf '%s\n' "${ROWS[@]}"
} >"$OUT"
cat "$OUT"
