#!/usr/bin/env bash
# Heap and threads per suspended long poll (loom; see docs/benchmarks.md):
#
#   N=10000 benchmarks/suspend-memory.sh
#
# Starts the bench server (pinned to SERVER_CPU); LongPollLoad holds N suspended GET /poll once
# and lets them go (warm-up: pools, JIT and eden reach their high-water marks); BASELINE is the
# live heap (jcmd GC.class_histogram total, after GC.run) with none held; then N are held again
# and LOADED is measured the same way. Prints (LOADED-BASELINE)/N, the thread counts and the
# top of the histogram.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
build_jar
trap stop_server EXIT
N=${N:-10000}
TMPDIR_=$(mktemp -d)
port=$(port_of loom)
start_server loom $TMPDIR_/heap-server.log
# warm-up: hold N polls once and let them go, so pools and JIT reach their high-water marks
taskset -c "$CLIENT_CPU" "$JAVA" -Xmx1g -cp "$JAR" org.loommpm.bench.LongPollLoad 127.0.0.1 $port $N 1 10 3 $SERVER_PID > $TMPDIR_/heap-warm.txt
sleep 2
"$JCMD" $SERVER_PID GC.run >/dev/null; sleep 2
base=$("$JCMD" $SERVER_PID GC.class_histogram | awk '$1 == "Total" {print $3}')
threads0=$(awk '/^Threads:/ {print $2}' /proc/$SERVER_PID/status)
taskset -c "$CLIENT_CPU" "$JAVA" -Xmx1g -cp "$JAR" org.loommpm.bench.LongPollLoad 127.0.0.1 $port $N 1 1 40 $SERVER_PID > $TMPDIR_/heap-load.txt &
CL=$!
for i in $(seq 120); do grep -q '^# ' $TMPDIR_/heap-load.txt 2>/dev/null && break; sleep 0.5; done
sleep 3
"$JCMD" $SERVER_PID GC.run >/dev/null; sleep 2
loaded=$("$JCMD" $SERVER_PID GC.class_histogram | tee $TMPDIR_/heap-histo.txt | awk '$1 == "Total" {print $3}')
threads1=$(awk '/^Threads:/ {print $2}' /proc/$SERVER_PID/status)
head -1 $TMPDIR_/heap-load.txt
echo "N=$N baseline=$base loaded=$loaded per_poll=$(( (loaded - base) / N )) threads $threads0 -> $threads1"
head -25 $TMPDIR_/heap-histo.txt
kill "$CL" 2>/dev/null || true; wait "$CL" 2>/dev/null || true
