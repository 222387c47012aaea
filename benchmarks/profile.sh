#!/usr/bin/env bash
# A CPU profile of one server under one workload (wrk, OpenLoop or h2load), with async-profiler (see README.md).
#
#   nice -n -15 benchmarks/profile.sh loom a          # server, workload (a-d as in run.sh)
#   F_RATE=20000 nice -n -15 benchmarks/profile.sh loom f   # f: OpenLoop at F_RATE, 50 connections
#   nice -n -15 benchmarks/profile.sh undertow m1     # h2c: h2load -c50 -m1 (m32: -c16 -m32), as in h2.sh
#
# The server starts as in run.sh (same JVM flags, pinned to SERVER_CPU; plus
# -XX:+EnableDynamicAgentLoading), gets WARMUP s of the workload, then the profiler runs for
# DURATION s of it (cpu, 200 µs interval) and writes collapsed stacks plus a summary of the
# hottest frames. ASYNC_PROFILER: libasyncProfiler.so; if unset it is unpacked from the Maven
# artifact tools.profiler:async-profiler:4.1:jar:linux-x64 (fetched into ~/.m2 if missing).
# SERVER_CPU_QUOTA holds the server to that share of a core, as in run.sh.
# Writes benchmarks/results/profile-STAMP/{SERVER-W.collapsed,SERVER-W.top.txt,wrk.txt (the load's output)}.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

server=${1:?usage: profile.sh SERVER WORKLOAD}
w=${2:?usage: profile.sh SERVER WORKLOAD}
WARMUP=${WARMUP:-10}
DURATION=${DURATION:-10}
RES="$BENCH_DIR/results/profile-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$RES"
ulimit -n 65536 2>/dev/null || true

if [ -z "${ASYNC_PROFILER:-}" ]; then
  ap_jar="$HOME/.m2/repository/tools/profiler/async-profiler/4.1/async-profiler-4.1-linux-x64.jar"
  [ -f "$ap_jar" ] || (cd "$ROOT_DIR" && ./loom mvn -q dependency:get -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64)
  mkdir -p "$BENCH_DIR/target/async-profiler"
  (cd "$BENCH_DIR/target/async-profiler" && unzip -qo "$ap_jar" 'linux-x64/*')
  ASYNC_PROFILER="$BENCH_DIR/target/async-profiler/linux-x64/libasyncProfiler.so"
fi

build_jar
JVM_FLAGS="$JVM_FLAGS -XX:+EnableDynamicAgentLoading"
trap 'stop_server; remove_quota_cgroup' EXIT
port=$(port_of "$server")
start_server "$server" "$RES/server.log"
case "$w" in
  a) args=(-t1 -c50 --latency) ;;
  b) args=(-t1 -c256 --latency) ;;
  c) args=(-t1 -c50 --latency -H 'Connection: close') ;;
  d) args=(-t1 -c256 --latency -s "$BENCH_DIR/pipeline.lua") ;;
  f) ;;
  m1 | m32) command -v h2load >/dev/null || { echo "h2load not found (apt-get install nghttp2-client)" >&2; exit 1; }
    if [ "$w" = m1 ]; then args=(-t1 -c50 -m1); else args=(-t1 -c16 -m32); fi ;;
  *) echo "workload a-d, f, m1 or m32" >&2; exit 2 ;;
esac
url="http://127.0.0.1:$port/plaintext"
extra=(); [ "$w" = d ] && extra=(-- 16)
load() {  # load SECONDS: the workload, its output on stdout
  if [ "$w" = f ]; then
    taskset -c "$CLIENT_CPU" "$JAVA" -cp "$JAR" org.loommpm.bench.OpenLoop --port "$port" --connections 50 \
      --warmup 0 rate "${F_RATE:-20000}" --seconds "$1"
  elif [ "$w" = m1 ] || [ "$w" = m32 ]; then
    # h2load -D can hang on streams after its deadline (see h2.sh): bounded by timeout.
    timeout -s INT $(($1 + 20)) taskset -c "$CLIENT_CPU" h2load "${args[@]}" -D "$1" "$url" || true
  else
    taskset -c "$CLIENT_CPU" wrk "${args[@]}" "-d${1}s" "$url" "${extra[@]}"
  fi
}
load "$WARMUP" >/dev/null
# The quotes inside: jcmd would otherwise read "key=value" pairs as its own options.
"$JCMD" "$SERVER_PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"start,event=cpu,interval=200us\"" >/dev/null
load "$DURATION" >"$RES/wrk.txt"
out="$RES/$server-$w.collapsed"
"$JCMD" "$SERVER_PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,file=$out,collapsed\"" >/dev/null
sleep 1

# The hottest frames: self time, then inclusive time of the servers' own and the JDK's I/O frames.
awk '{n = $NF; $NF = ""; total += n; k = split($0, f, ";"); sub(/ +$/, "", f[k]); self[f[k]] += n
      delete seen; for (i = 1; i <= k; i++) { g = f[i]; sub(/ +$/, "", g); if (!(g in seen)) { seen[g] = 1; incl[g] += n } } }
     END {
       print "samples: " total
       print "--- self"
       for (g in self) printf "%6.2f%% %s\n", 100 * self[g] / total, g | "sort -rn | head -30"
       close("sort -rn | head -30")
       print "--- inclusive (org.loommpm, io.helidon, io.netty, org.eclipse.jetty, sun.nio, java.lang.VirtualThread, kernel syscalls)"
       for (g in incl) if (g ~ /loommpm|helidon|netty|jetty|sun\/nio|VirtualThread|Continuation|ForkJoin|^__x64_sys|^do_syscall/)
         printf "%6.2f%% %s\n", 100 * incl[g] / total, g | "sort -rn | head -50"
     }' "$out" >"$RES/$server-$w.top.txt"
grep -E '^Requests/sec|^RESULT|^finished in' "$RES/wrk.txt"
echo "profile: $RES/$server-$w.top.txt"
