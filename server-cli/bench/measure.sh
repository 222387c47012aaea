#!/usr/bin/env bash
# Measures loom-mpm.jar (not a test; prints figures):
#   1. start-up: median time from `java -jar loom-mpm.jar` to the first served request, over
#      RUNS runs, without and with an AppCDS archive (-XX:SharedArchiveFile);
#   2. throughput: wrk req/s for a 13-byte static file (access log to a file, then to /dev/null)
#      and for the core's hello route (HelloServer.java) in the same run, -c50 keep-alive,
#      each after a warm-up (WARMUP seconds, default 10, then 2 s on new connections: until the
#      JIT settles), with server CPU time per request (utime+stime from /proc/PID/stat /
#      requests) and the JIT compiler threads' share of it.
# Needs curl and wrk. Usage: [WARMUP=10] server-cli/bench/measure.sh [RUNS=10] [SECONDS=10]
# Build the jar first: ./loom mvn -q -pl server-cli -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-10}
SECS=${2:-10}
# shellcheck source=common.sh
. server-cli/bench/common.sh
PORT=$(free_port)
mkdir -p "$WORK/htdocs"
printf 'Hello, World!' > "$WORK/htdocs/hello.txt"
conf() {  # $1 = CustomLog target
  cat > "$WORK/loom.conf" <<CONF
Listen 127.0.0.1:$PORT
DocumentRoot htdocs
MaxKeepAliveRequests 0
CustomLog $1 common
ErrorLog error.log
CONF
}
# The start-up probe forks nothing (bash's /dev/tcp; a read timeout on a FIFO no one writes as its
# 1 ms pause): curl in a loop costs ~10 ms of CPU per try, taken from the server it times.
mkfifo "$WORK/tick"; exec 4<>"$WORK/tick"
answers_200() {
  { exec 3<>"/dev/tcp/127.0.0.1/$PORT"; } 2>/dev/null || return 1
  printf 'GET /hello.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
  local version status=""
  read -r -t 5 version status _ <&3 || true
  exec 3<&-
  [ "$status" = 200 ]
}

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "median %d ms (min %d, max %d)", m, a[1], a[NR]}'; }
startup_runs() {  # $@ = extra JVM options; prints the median wall time and CPU time (all threads) in ms
  local times=() cpus=() i t0 t1 pid
  local tck; tck=$(getconf CLK_TCK)
  for i in $(seq "$RUNS"); do
    t0=${EPOCHREALTIME/./}
    (cd "$WORK" && exec "$JAVA" "$@" -jar "$JAR" -f loom.conf >/dev/null 2>&1) & pid=$!
    until answers_200; do read -r -t 0.001 -u 4 || true; done
    t1=${EPOCHREALTIME/./}
    times+=($(( (t1 - t0) / 1000 )))
    cpus+=($(( $(awk '{print $14 + $15}' "/proc/$pid/stat") * 1000 / tck )))
    kill -TERM "$pid"; wait "$pid" || true
  done
  echo "wall $(printf '%s\n' "${times[@]}" | median); CPU $(printf '%s\n' "${cpus[@]}" | median) [$RUNS runs]"
}

echo "== start-up: java -jar loom-mpm.jar -> first served request ($RUNS runs) =="
conf access.log
echo "plain:          $(startup_runs)"
# AppCDS: the first run writes the archive at exit, later runs map it.
CDS="$WORK/loom.jsa"
startup_runs -XX:SharedArchiveFile="$CDS" -XX:+AutoCreateSharedArchive >/dev/null
echo "AppCDS archive: $(startup_runs -XX:SharedArchiveFile="$CDS" -XX:+AutoCreateSharedArchive)"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
jit_ticks() {  # utime+stime of the JIT compiler threads (their names hold a space: fields after the ")")
  local t s=0
  for t in /proc/"$1"/task/*; do
    case $(cat "$t/comm" 2>/dev/null) in
      *Compiler*) s=$((s + $(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}'))) ;;
    esac
  done
  echo "$s"
}
# Warm-up: until the JIT has settled, for both servers alike. The C2 compiler threads still took
# 1-5 us per request 3-9 s after start under this load (the jar has more code to compile than
# the hello route), so the former 2-s warm-up measured part of the jar's compilation rather than
# its steady state. And each wrk run opens 50 new connections, whose first requests take
# branches the steady state never saw (uncommon traps in the connection handler and the poller,
# then recompilation): a second, short warm-up run pays that before the measured run does. The
# JIT CPU left in the window is printed so a reader can see it settled.
WARMUP=${WARMUP:-10}
bench() {  # $1 = label, $2 = pid, $3 = url
  local before after jb ja out reqs rps
  wrk -t2 -c50 -d"${WARMUP}s" "$3" >/dev/null
  wrk -t2 -c50 -d2s "$3" >/dev/null
  before=$(cpu_ticks "$2"); jb=$(jit_ticks "$2")
  out=$(wrk -t2 -c50 -d"${SECS}s" "$3")
  after=$(cpu_ticks "$2"); ja=$(jit_ticks "$2")
  reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  local tck; tck=$(getconf CLK_TCK)
  per() { awk -v t="$1" -v n="$reqs" -v k="$tck" 'BEGIN {printf "%.1f", t / k * 1e6 / n}'; }
  echo "$1: $rps req/s, $reqs requests, server CPU $(per $((after - before))) us/request (JIT $(per $((ja - jb)))), errors: $(echo "$out" | grep -c 'Non-2xx\|Socket errors' || true)"
}

echo "== throughput: wrk -t2 -c50 -d${SECS}s, keep-alive =="
for target in access.log /dev/null; do
  conf "$target"
  (cd "$WORK" && exec "$JAVA" -jar "$JAR" -f loom.conf >/dev/null 2>&1) & pid=$!; PIDS+=("$pid")
  until curl -fs -o /dev/null "http://127.0.0.1:$PORT/hello.txt"; do sleep 0.01; done
  bench "static 13-byte file (CustomLog $target)" "$pid" "http://127.0.0.1:$PORT/hello.txt"
  kill -TERM "$pid"; wait "$pid" || true
done
HPORT=$(free_port)
"$JAVA" -cp "$JAR" server-cli/bench/HelloServer.java "$HPORT" >/dev/null 2>&1 & hpid=$!; PIDS+=("$hpid")
until curl -fs -o /dev/null "http://127.0.0.1:$HPORT/hello"; do sleep 0.05; done
bench "core hello route (no access log)" "$hpid" "http://127.0.0.1:$HPORT/hello"
kill -TERM "$hpid"; wait "$hpid" || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on this machine skews req/s; CPU/request is steadier)"
