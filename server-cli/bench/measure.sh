#!/usr/bin/env bash
# Measures loom-mpm.jar (not a test; prints figures):
#   1. start-up: median time from `java -jar loom-mpm.jar` to the first served request, over
#      RUNS runs, without and with an AppCDS archive (-XX:SharedArchiveFile);
#   2. throughput: wrk req/s for a 13-byte static file (with its access log written to a file,
#      and without one: CustomLog /dev/null, which is not formatted at all) and for the core's
#      hello route (HelloServer.java), -c50 keep-alive, measured in turns over ROUNDS rounds
#      (the ratio is taken per round; its median is printed), in SETS sets of new server JVMs
#      (default 1), each server after a warm-up (WARMUP seconds, default 10, then 2 s on new
#      connections: until the JIT settles), with server CPU time per request (utime+stime from
#      /proc/PID/stat / requests) and the JIT compiler threads' share of it.
# Needs curl and wrk. Usage: [WARMUP=10] [ROUNDS=3] [SETS=1] server-cli/bench/measure.sh [RUNS=10] [SECONDS=10]
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
conf() {  # $1 = CustomLog target, $2 = port, $3 = directory for loom.conf
  cat > "$3/loom.conf" <<CONF
Listen 127.0.0.1:$2
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
conf access.log "$PORT" "$WORK"
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
ROUNDS=${ROUNDS:-3}
TCK=$(getconf CLK_TCK)
warm() {  # $1 = url
  wrk -t2 -c50 -d"${WARMUP}s" "$1" >/dev/null
  wrk -t2 -c50 -d2s "$1" >/dev/null
}
bench() {  # $1 = label, $2 = pid, $3 = url; prints "label rps us_per_request" and a readable line to stderr
  local before after jb ja out reqs rps cpu jit
  before=$(cpu_ticks "$2"); jb=$(jit_ticks "$2")
  out=$(wrk -t2 -c50 -d"${SECS}s" "$3")
  after=$(cpu_ticks "$2"); ja=$(jit_ticks "$2")
  reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  per() { awk -v t="$1" -v n="$reqs" -v k="$TCK" 'BEGIN {printf "%.1f", t / k * 1e6 / n}'; }
  cpu=$(per $((after - before))); jit=$(per $((ja - jb)))
  echo "  $1: $rps req/s, server CPU $cpu us/request (JIT $jit), errors: $(echo "$out" | grep -c 'Non-2xx\|Socket errors' || true)" >&2
  echo "$1 $rps $cpu"
}

# All three servers run at once and are measured in turns (file with its access log, file without
# one (CustomLog /dev/null), hello), ROUNDS times: req/s on two shared cores swings by ±20 % between
# runs, so the ratio is taken within each round and the median of the rounds is reported. And
# SETS times over, each set with three new JVMs: one JVM can run a few per cent faster or slower
# than the next for as long as it lives (the same jar measured 14.0-14.8 us per request in one
# set and 15.2-16.3 in the next), so one set's rounds share its JVMs' luck.
SETS=${SETS:-1}
echo "== throughput: wrk -t2 -c50 -d${SECS}s, keep-alive, $SETS set(s) of new servers, $ROUNDS interleaved rounds each after a ${WARMUP}+2 s warm-up =="
RESULTS=$WORK/throughput.txt
declare -A URL SPID
for set in $(seq "$SETS"); do
  for target in access.log /dev/null; do
    label=$([ "$target" = /dev/null ] && echo file-nolog || echo file)
    p=$(free_port)
    mkdir -p "$WORK/$label"; ln -sfn "$WORK/htdocs" "$WORK/$label/htdocs"
    conf "$target" "$p" "$WORK/$label"
    (cd "$WORK/$label" && exec "$JAVA" -jar "$JAR" -f loom.conf >/dev/null 2>&1) & SPID[$label]=$!; PIDS+=("${SPID[$label]}")
    URL[$label]="http://127.0.0.1:$p/hello.txt"
  done
  HPORT=$(free_port)
  "$JAVA" -cp "$JAR" server-cli/bench/HelloServer.java "$HPORT" >/dev/null 2>&1 & SPID[hello]=$!; PIDS+=("${SPID[hello]}")
  URL[hello]="http://127.0.0.1:$HPORT/hello"
  for s in file file-nolog hello; do
    until curl -fs -o /dev/null "${URL[$s]}"; do sleep 0.05; done
    warm "${URL[$s]}"
  done
  for r in $(seq "$ROUNDS"); do
    echo " set $set, round $r"
    for s in file file-nolog hello; do bench "$s" "${SPID[$s]}" "${URL[$s]}" >>"$RESULTS"; done
  done
  for s in file file-nolog hello; do kill "${SPID[$s]}"; wait "${SPID[$s]}" 2>/dev/null || true; done
  PIDS=() # ended: the exit trap must not kill whatever reuses their PIDs
  rm -f "$WORK/file/access.log"
done
echo "static 13-byte file / core hello route (which logs nothing): with the file's access log written to a file, and without (CustomLog /dev/null):"
awk '{rps[$1]=rps[$1] " " $2; cpu[$1]=cpu[$1] " " $3}
     END {
       n = split(rps["file"], f); split(rps["file-nolog"], d); split(rps["hello"], h)
       split(cpu["file"], fc); split(cpu["file-nolog"], dc); split(cpu["hello"], hc)
       for (i = 1; i <= n; i++) {
         printf "  round %d: req/s file/hello %.2f (no log %.2f); CPU per request hello/file %.2f (no log %.2f)\n", i, f[i]/h[i], d[i]/h[i], hc[i]/fc[i], hc[i]/dc[i]
         r[i] = f[i]/h[i]; rd[i] = d[i]/h[i]; c[i] = hc[i]/fc[i]; cd[i] = hc[i]/dc[i]
       }
       printf "  median of rounds: req/s file/hello %.2f (no log %.2f); CPU hello/file %.2f (no log %.2f)\n", med(r, n), med(rd, n), med(c, n), med(cd, n)
     }
     function med(a, n,   i, j, t) {
       for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
       return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
     }' "$RESULTS"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on this machine skews req/s; CPU/request is steadier)"
