# Shared by the benchmark scripts: the JDK, the jar, and starting/stopping one server.
# shellcheck shell=bash

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$(dirname "$BENCH_DIR")
# BENCH_JAR: another build of the bench jar, for an A/B of two commits in interleaved runs.
JAR=${BENCH_JAR:-"$BENCH_DIR/target/loom-mpm-bench.jar"}
# The product jar (`java -jar loom-mpm.jar`), for the start-up rows loom-jar and loom-jar-aot.
SERVER_JAR=${SERVER_JAR:-"$ROOT_DIR/server-cli/target/loom-mpm.jar"}
# The start-up row's jdk: the JDK's own server in a jar of its own (BenchServer and JdkBench only),
# as its users ship it; loom-mpm-bench.jar's 10,000 entries would slow its start, not ours.
JDK_JAR="$BENCH_DIR/target/jdk-httpserver-bench.jar"

SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
# SERVER_CPU_QUOTA: empty (the default) or the percentage of one core the server's process may use
# (e.g. 50), enforced by the kernel's CFS bandwidth control over a 10 ms period (cgroup v2
# cpu.max, or v1 cpu.cfs_quota_us; needs root). For the rows where the load tool saturates its own
# core (wrk at 90-100 %): with the server held below what the client can offer, req/s measures
# the server, not the client. Every thread of the server (JIT, GC) counts against the quota.
SERVER_CPU_QUOTA=${SERVER_CPU_QUOTA:-}
QUOTA_PERIOD_US=10000
PORT_BASE=${PORT_BASE:-18080}

# The JDK ../loom picks (JAVA_HOME, PATH, then the newest JDK 21+ under /usr/lib/jvm, ...).
if [ -z "${BENCH_JAVA_HOME:-}" ]; then
  BENCH_JAVA_HOME=$("$ROOT_DIR/loom" java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
fi
JAVA="$BENCH_JAVA_HOME/bin/java"
JCMD="$BENCH_JAVA_HOME/bin/jcmd"
[ -x "$JAVA" ] || { echo "no JDK 21+ found (../loom java)" >&2; exit 1; }
JAVA_MAJOR=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')

# The same JVM flags for every server. --sun-misc-unsafe-memory-access=allow: Netty 4.2 turns its
# sun.misc.Unsafe paths off by default on JDK 24+ unless this is given (the others ignore it). Only
# on JDK 23+, which know the option: 21 and 22 refuse to start with it.
if [ -z "${JVM_FLAGS:-}" ]; then
  JVM_FLAGS="-Xms1g -Xmx1g -XX:+UseParallelGC"
  if [ "${JAVA_MAJOR:-0}" -ge 23 ]; then
    JVM_FLAGS="$JVM_FLAGS --sun-misc-unsafe-memory-access=allow"
  fi
fi

build_jar() {
  if [ ! -f "$JAR" ] || [ ! -f "$JDK_JAR" ] || [ ! -f "$SERVER_JAR" ] || [ "${BUILD:-0}" = 1 ]; then
    echo "building $JAR and $SERVER_JAR ..." >&2
    (cd "$ROOT_DIR" && ./loom mvn -q -B -DskipTests -pl benchmarks -am package)
  fi
}

# build_jars SERVER_JAR [MVN_ARG...]: builds every module's jar (package, no tests) when the bench
# jar or SERVER_JAR is missing or BUILD=1; MVN_ARGs (e.g. -o) go to maven.
build_jars() {
  local server_jar=$1
  shift
  if [ ! -f "$JAR" ] || [ ! -f "$JDK_JAR" ] || [ ! -f "$server_jar" ] || [ "${BUILD:-0}" = 1 ]; then
    echo "building the jars ..." >&2
    (cd "$ROOT_DIR" && ./loom mvn -q -B "$@" -DskipTests package)
  fi
}

# set_pins: PIN_SERVER / PIN_CLIENT, the command prefixes pinning to SERVER_CPU / CLIENT_CPU
# (empty arrays where there is no taskset).
set_pins() {
  PIN_SERVER=() PIN_CLIENT=()
  if command -v taskset >/dev/null; then
    PIN_SERVER=(taskset -c "$SERVER_CPU") PIN_CLIENT=(taskset -c "$CLIENT_CPU")
  fi
}

# port_of SERVER: a fixed port per server, so a slow-dying predecessor never blocks the next bind.
port_of() {
  case "$1" in
    loom) echo $((PORT_BASE + 0)) ;; helidon) echo $((PORT_BASE + 1)) ;;
    jetty) echo $((PORT_BASE + 2)) ;; netty) echo $((PORT_BASE + 3)) ;;
    loom-noac) echo $((PORT_BASE + 4)) ;; jdk) echo $((PORT_BASE + 5)) ;;
    undertow) echo $((PORT_BASE + 6)) ;; loom-jar) echo $((PORT_BASE + 7)) ;;
    loom-jar-aot) echo $((PORT_BASE + 8)) ;; loom-blk) echo $((PORT_BASE + 9)) ;;
    netty-noleak) echo $((PORT_BASE + 10)) ;; loom-jar-nopreload) echo $((PORT_BASE + 11)) ;;
    loom-stored) echo $((PORT_BASE + 12)) ;;
    *) echo "unknown server $1" >&2; return 1 ;;
  esac
}

# server_impl SERVER: the jar's server argument (loom-noac is loom with AdmissionControl Off;
# loom-blk is loom with every route blocking, LOOM_ROUTES=blocking: the non-blocking A/B;
# netty-noleak is netty with its buffer leak detector off, see server_jvm_flags; loom-stored is
# loom whose /upload stores every part as the other peers do, LOOM_UPLOAD=stored: toolkit.sh).
server_impl() {
  case "$1" in loom-noac|loom-blk|loom-stored) echo loom ;; netty-noleak) echo netty ;; *) echo "$1" ;; esac
}

# server_jvm_flags SERVER: JVM_FLAGS plus what a pseudo-server adds. netty-noleak turns off
# Netty's ResourceLeakDetector (default SIMPLE: about one buffer in 128 records a stack trace),
# as benchmark setups often do; it measures what the default costs Netty, an A/B only.
server_jvm_flags() {
  case "$1" in
    netty-noleak) echo "$JVM_FLAGS -Dio.netty.leakDetection.level=disabled" ;;
    *) echo "$JVM_FLAGS" ;;
  esac
}

# jit_ticks_of PID: utime + stime of the JVM's JIT compiler threads, in clock ticks (0 for a
# process without them: nginx, httpd). A lower bound: a compiler thread the JVM retires
# (UseDynamicNumberOfCompilerThreads) takes its time out of the per-thread counts.
jit_ticks_of() {
  local t total=0 n
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      "C1 CompilerThre"* | "C2 CompilerThre"*)
        n=$(awk '{sub(/.*\) /, ""); print $12 + $13}' "$t/stat" 2>/dev/null || echo 0)
        total=$((total + n)) ;;
    esac
  done
  echo "$total"
}

SERVER_PID=""
QUOTA_CGROUP=""

# The JIT settling after a warm-up (settle_jit, and h2.sh's warm-up): more load while the server's
# JIT compiler threads took over JIT_SETTLE_PCT % of its CPU in the last JIT_SETTLE_STEP s, for
# JIT_SETTLE_MAX s at most (0: none).
JIT_SETTLE_PCT=${JIT_SETTLE_PCT:-3}
JIT_SETTLE_STEP=${JIT_SETTLE_STEP:-3}
JIT_SETTLE_MAX=${JIT_SETTLE_MAX:-60}
[ "$JIT_SETTLE_STEP" -ge 1 ] || { echo "JIT_SETTLE_STEP must be at least 1 (seconds)" >&2; exit 2; }

# server_cpu_ticks: utime + stime of the running server, in clock ticks (USER_HZ = 100).
server_cpu_ticks() {
  awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$SERVER_PID/stat"
}

# noise_sample: one line of the counters noise_delta compares: the hypervisor's steal and all
# ticks of the server's and the client's cores (/proc/stat), and the quota cgroup's throttling
# (periods throttled, time throttled in us; 0 0 without a quota). A shared VM loses time to its
# neighbours; a round whose figures look odd is explained by these before it is published.
noise_sample() {
  local throttle="0 0"
  if [ -n "$QUOTA_CGROUP" ] && [ -f "$QUOTA_CGROUP/cpu.stat" ]; then
    # v2 reports throttled_usec, v1 throttled_time in ns.
    throttle=$(awk '$1 == "nr_throttled" {n = $2} $1 == "throttled_usec" {u = $2}
      $1 == "throttled_time" {u = $2 / 1000} END {printf "%d %d", n, u}' "$QUOTA_CGROUP/cpu.stat")
  fi
  awk -v s="cpu$SERVER_CPU" -v c="cpu$CLIENT_CPU" -v t="$throttle" '
    function total(   i, sum) { for (i = 2; i <= NF; i++) sum += $i; return sum }
    $1 == s {ss = $9; st = total()} $1 == c {cs = $9; ct = total()}
    END {print ss, st, cs, ct, t}' /proc/stat
}

# noise_delta BEFORE AFTER: the "# noise:" line of a result file: each core's steal as a
# percentage of its ticks between the samples, and the server's throttling.
noise_delta() {
  awk -v a="$1" -v b="$2" 'BEGIN {split(a, x, " "); split(b, y, " ")
    printf "# noise: steal_server_core_pct=%.1f steal_client_core_pct=%.1f nr_throttled=%d throttled_ms=%.0f\n",
      (y[2] > x[2] ? 100 * (y[1] - x[1]) / (y[2] - x[2]) : 0), (y[4] > x[4] ? 100 * (y[3] - x[3]) / (y[4] - x[4]) : 0),
      y[5] - x[5], (y[6] - x[6]) / 1000}'
}

# append_noise FILE LINE: adds noise_delta's LINE to a result FILE and shows it on the console.
append_noise() {
  echo "$2" | tee -a "$1" | sed 's/^# /   /'
}

WRK_ARGS=()
wrk_args() {  # wrk_args WORKLOAD DURATION PORT: sets WRK_ARGS
  local url="http://127.0.0.1:$3/plaintext"
  case "$1" in
    a) WRK_ARGS=(-t1 -c50 "-d$2s" --latency "$url") ;;
    b) WRK_ARGS=(-t1 -c256 "-d$2s" --latency "$url") ;;
    c) WRK_ARGS=(-t1 -c50 "-d$2s" --latency -H 'Connection: close' "$url") ;;
    d) WRK_ARGS=(-t1 -c256 "-d$2s" --latency -s "$BENCH_DIR/pipeline.lua" "$url" -- 16) ;;
    # toolkit.sh's JSON row: TechEmpower's /json, keep-alive, JSON_CONNS (50) connections.
    j) WRK_ARGS=(-t1 "-c${JSON_CONNS:-50}" "-d$2s" --latency "http://127.0.0.1:$3/json") ;;
    *) echo "unknown workload $1" >&2; return 1 ;;
  esac
}

# settle_jit W PORT LOG: more warm-up of workload W, in JIT_SETTLE_STEP-second wrk runs, while the
# server's JIT compiler threads took more than JIT_SETTLE_PCT % of its CPU in the last run, for
# JIT_SETTLE_MAX seconds at most; prints the seconds it added. Under a CPU quota the compiler
# shares the server's half core: on 29 Nov Netty's C2 still took 36 % of it in the 6 s after a
# 20 s warm-up at c256 (1.1 s of 3.0), which tripled its CPU per request in that round, while
# loom-mpm's took 7 %. A fixed warm-up long enough for the slowest peer would be guesswork.
settle_jit() {
  local w=$1 port=$2 log=$3 spent=0 cpu0 cpu1 jit0 jit1
  while [ "$spent" -lt "$JIT_SETTLE_MAX" ]; do
    wrk_args "$w" "$JIT_SETTLE_STEP" "$port"
    cpu0=$(server_cpu_ticks); jit0=$(jit_ticks_of "$SERVER_PID")
    taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" >>"$log" 2>&1 || true
    cpu1=$(server_cpu_ticks); jit1=$(jit_ticks_of "$SERVER_PID")
    spent=$((spent + JIT_SETTLE_STEP))
    echo "# settle ${spent} s: JIT $((jit1 - jit0)) of $((cpu1 - cpu0)) ticks" >>"$log"
    awk -v j=$((jit1 - jit0)) -v c=$((cpu1 - cpu0)) -v p="$JIT_SETTLE_PCT" 'BEGIN {exit !(c > 0 && 100 * j <= p * c)}' && break
  done
  echo "$spent"
}

# warm_wrk W SECONDS PORT LOG: SECONDS of wrk workload W (discarded), then settle_jit; prints the
# seconds the settling added.
warm_wrk() {
  wrk_args "$1" "$2" "$3"
  taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" >"$4" 2>&1 || true
  settle_jit "$1" "$3" "$4"
}

# quota_cgroup: creates (once) QUOTA_CGROUP, the cgroup that holds the server at SERVER_CPU_QUOTA %
# of a core; fails when neither cgroup v2's cpu.max nor v1's cpu controller is writable.
quota_cgroup() {
  if [ -z "$QUOTA_CGROUP" ]; then
    local quota=$((SERVER_CPU_QUOTA * QUOTA_PERIOD_US / 100)) dir
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
      dir=/sys/fs/cgroup/loom-bench-$$
      mkdir -p "$dir" && echo "$quota $QUOTA_PERIOD_US" >"$dir/cpu.max" || return 1
    else
      dir=/sys/fs/cgroup/cpu/loom-bench-$$
      mkdir -p "$dir" && echo "$QUOTA_PERIOD_US" >"$dir/cpu.cfs_period_us" \
        && echo "$quota" >"$dir/cpu.cfs_quota_us" || return 1
    fi
    QUOTA_CGROUP=$dir
  fi
}

# require_quota_cgroup: when SERVER_CPU_QUOTA is set, makes its cgroup or fails with a message.
require_quota_cgroup() {
  [ -z "$SERVER_CPU_QUOTA" ] || quota_cgroup || {
    echo "SERVER_CPU_QUOTA=$SERVER_CPU_QUOTA: cannot set a CPU quota (cgroup not writable)" >&2; return 1; }
}

# remove_quota_cgroup: removes the cgroup quota_cgroup made (empty once its servers have exited).
remove_quota_cgroup() {
  [ -n "$QUOTA_CGROUP" ] && rmdir "$QUOTA_CGROUP" 2>/dev/null
  QUOTA_CGROUP=""
}

# in_quota CMD...: runs CMD (exec) inside the quota cgroup quota_cgroup made, if any.
in_quota() {
  if [ -n "$QUOTA_CGROUP" ]; then
    echo "$BASHPID" >"$QUOTA_CGROUP/cgroup.procs" || exit 1
  fi
  exec "$@"
}

# start_server SERVER LOGFILE: starts it pinned to SERVER_CPU (and held to SERVER_CPU_QUOTA),
# waits for READY (60 s at most).
start_server() {
  local server=$1 log=$2 port i
  port=$(port_of "$server")
  : >"$log"
  local admission=on
  [ "$server" = loom-noac ] && admission=off
  local routes=${LOOM_ROUTES:-}
  [ "$server" = loom-blk ] && routes=blocking
  local upload=${LOOM_UPLOAD:-}
  [ "$server" = loom-stored ] && upload=stored
  require_quota_cgroup || return 1
  # shellcheck disable=SC2086
  (export LOOM_ROUTES=$routes LOOM_ADMISSION=$admission LOOM_UPLOAD=$upload; in_quota taskset -c "$SERVER_CPU" "$JAVA" $(server_jvm_flags "$server") -jar "$JAR" "$port" "$(server_impl "$server")") \
    >"$log" 2>&1 &
  SERVER_PID=$!
  for i in $(seq 600); do
    if grep -q '^READY' "$log"; then return 0; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "server $server exited during start-up; log:" >&2; cat "$log" >&2; SERVER_PID=""; return 1
    fi
    sleep 0.1
  done
  echo "server $server not READY within 60 s" >&2
  stop_server
  return 1
}

# stop_server: TERM, then KILL after 10 s; only the PID this script started.
stop_server() {
  local i
  [ -n "$SERVER_PID" ] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for i in $(seq 100); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "server pid $SERVER_PID ignored TERM for 10 s; killing" >&2
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# run_client FILE CMD...: runs the load tool CMD with its output appended to FILE, then appends
# "# client_cpu_s=S wall_s=W": the CPU time (user + system) CMD and its children used, read from
# this subshell's cutime + cstime once CMD has been waited for, and the wall time it ran. The
# load tool's share of its core (S / W) tells whether a row measured the server or the client:
# near 100 % the client was saturated and the row's req/s is a lower bound for the server.
run_client() {
  local f=$1; shift
  (
    t0=$(date +%s.%N)
    "$@" >>"$f" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    awk -v hz="$(getconf CLK_TCK)" -v t0="$t0" -v t1="$t1" \
      '{sub(/.*\) /, ""); printf "# client_cpu_s=%.2f wall_s=%.2f\n", ($14 + $15) / hz, t1 - t0}' \
      "/proc/$BASHPID/stat" >>"$f"
    exit "$rc"
  )
}

machine_summary() {
  echo "jdk: $("$JAVA" -version 2>&1 | sed -n 2p) ($BENCH_JAVA_HOME)"
  echo "jvm flags: $JVM_FLAGS"
  echo "cpu: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores; server on core $SERVER_CPU, client on core $CLIENT_CPU (taskset)"
  [ -z "$SERVER_CPU_QUOTA" ] || echo "server cpu quota: $SERVER_CPU_QUOTA % of one core (CFS bandwidth, ${QUOTA_PERIOD_US} us period): req/s measures the server, not the client"
  echo "kernel: $(uname -r)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other processes on this machine add noise)"
}
