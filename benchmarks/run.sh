#!/usr/bin/env bash
# Side-by-side plaintext load test of loom-mpm, Helidon, Jetty, Netty and Undertow (see README.md).
#
#   nice -n -15 benchmarks/run.sh                          # full run: 4 servers x 8 workloads x 3 rounds
#   SERVERS="loom helidon" ROUNDS=1 DURATION=5 WORKLOADS="a c" benchmarks/run.sh   # quick run
#
# Environment: SERVERS (loom helidon jetty netty undertow; jdk, the JDK's own httpserver, on request), ROUNDS (3), DURATION (10 s measured),
# WARMUP (5 s wrk warm-up before each of a-d), FIRST_WARMUP (WARMUP; the warm-up of the first
# wrk workload after a server starts, when the JIT does most of its work), then JIT_SETTLE_STEP (3)
# s runs more while the JIT took over JIT_SETTLE_PCT (3) % of the server's CPU in the last, up to
# JIT_SETTLE_MAX (60) s (JIT_SETTLE_MAX=0: none), WORKLOADS (a b c d e f g h i), JVM_FLAGS, SERVER_CPU (0), CLIENT_CPU (1),
# PORT_BASE (18080), BUILD=1 to rebuild the jar, OUT (docs/benchmarks/results-DATE.md),
# E_START (10000) / E_STEP (3 s) / E_P99_MS (10), F_RATE (50000), G_RATE (4 x loom's sustained
# /slow rate, found by a search before round 1), G_CONNECTIONS (2048), G_WARMUP (10 s of
# wrk -c256 on /slow before g), H_RUNS (10), H_SERVERS (the start-up row's servers: loom, loom-jar,
# loom-jar-aot, jdk, then the other SERVERS), H_SERVER_CPUS (SERVER_CPU: the cores a starting
# server may use; "0,1" for two, the probe then shares core 1), SERVER_CPU_QUOTA (empty; a
# percentage of one core the server may use, so that the server, not wrk, sets the pace of a-d:
# see common.sh; not for e-h, whose offered rate or start-up a quota would distort).
# Workloads (GET /plaintext unless said):
#   a = keep-alive -c50; b = keep-alive -c256; c = Connection: close -c50; d = pipelined depth 16,
#       -c256 (all wrk -t1 --latency);
#   e = open-loop search: highest constant rate with every request answered and p99 < E_P99_MS
#       (OpenLoop, 50 connections);
#   f = server CPU time per request at F_RATE req/s, open loop, 50 connections;
#   g = overload: GET /slow (20 ms handler) at G_RATE, up to G_CONNECTIONS connections, 1 s
#       deadline; loom runs it twice, admission control on and off (pseudo-server loom-noac);
#   h = start-up: process start to first 200, H_RUNS times per server (after the rounds), for
#       H_SERVERS: besides the bench app's servers, loom-jar = `java -jar loom-mpm.jar` with the
#       embedded default (as the README runs it; GET /, the welcome page) and loom-jar-aot = the
#       same with the AOT cache (JDK 25+; AppCDS on 21-24) that server-cli/bin/aot-cache.sh makes
#       from a training run just before, loom-jar-nopreload = loom-jar without its start-up class
#       preloading (-Dloom.preloadClasses=false, the A/B of that lever), and jdk = the JDK's own
#       server from a jar of its own (target/jdk-httpserver-bench.jar); the others start from
#       loom-mpm-bench.jar;
#   i = HTTP/2 (h2c): h2load -n I_REQUESTS (400000) -c16 -m32 after I_WARMUP (1000000) warm-up
#       requests, for the servers in H2_SERVERS (loom helidon netty: Jetty's app has no h2c; TLS h2 rows: h2.sh).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom helidon jetty netty undertow"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
FIRST_WARMUP=${FIRST_WARMUP:-$WARMUP}
WORKLOADS=${WORKLOADS:-"a b c d e f g h i"}
I_REQUESTS=${I_REQUESTS:-400000}
I_WARMUP=${I_WARMUP:-1000000}
H2_SERVERS=${H2_SERVERS:-"loom helidon netty undertow"}
E_START=${E_START:-10000}
E_STEP=${E_STEP:-3}
E_P99_MS=${E_P99_MS:-10}
F_RATE=${F_RATE:-50000}
G_RATE=${G_RATE:-}
G_CONNECTIONS=${G_CONNECTIONS:-2048}
G_WARMUP=${G_WARMUP:-10}
H_RUNS=${H_RUNS:-10}
H_SERVER_CPUS=${H_SERVER_CPUS:-$SERVER_CPU}
if [ -z "${H_SERVERS:-}" ]; then  # the default: the jar, its AOT cache and the JDK's own server first
  H_SERVERS="loom loom-jar loom-jar-aot jdk"
  for s in $SERVERS; do [[ " $H_SERVERS " == *" $s "* ]] || H_SERVERS="$H_SERVERS $s"; done
fi
DATE=$(date +%F)
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/results-$DATE.md"}
RES="$BENCH_DIR/results/$STAMP"
mkdir -p "$RES/wrk" "$RES/warmup" "$RES/logs" "$RES/open" "$RES/startup" "$RES/h2"
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

build_jar
trap 'stop_server; remove_quota_cgroup' EXIT
trap 'exit 130' INT TERM

has_workload() { [[ " $WORKLOADS " == *" $1 "* ]]; }

# The open-loop client: its own JVM on the client core.
open_loop() {  # open_loop PORT ARGS...
  local port=$1; shift
  # shellcheck disable=SC2086
  taskset -c "$CLIENT_CPU" "$JAVA" $CLIENT_JVM_FLAGS -cp "$JAR" org.loommpm.bench.OpenLoop \
    --port "$port" --server-pid "$SERVER_PID" "$@"
}
CLIENT_JVM_FLAGS=${CLIENT_JVM_FLAGS:-"-Xms512m -Xmx512m -XX:+UseParallelGC"}

# run_wrk W SERVER ROUND PORT WARMUP: warm-up (then settle_jit), then the measured run with the
# server's CPU time and its JIT compiler threads' share of it.
run_wrk() {
  local w=$1 server=$2 round=$3 port=$4 f cpu0 cpu1 jit0 jit1 settled noise0 noise
  settled=$(warm_wrk "$w" "$5" "$port" "$RES/warmup/${w}_${server}_r$round.txt")
  wrk_args "$w" "$DURATION" "$port"
  f="$RES/wrk/${w}_${server}_r$round.txt"
  printf '# wrk' >"$f"; printf " '%s'" "${WRK_ARGS[@]}" >>"$f"; echo >>"$f"
  tcp_counters >"$RES/nstat.before"
  cpu0=$(server_cpu_ticks); jit0=$(jit_ticks_of "$SERVER_PID"); noise0=$(noise_sample)
  run_client "$f" taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" || echo "   wrk exited non-zero" >&2
  cpu1=$(server_cpu_ticks); jit1=$(jit_ticks_of "$SERVER_PID"); noise=$(noise_delta "$noise0" "$(noise_sample)")
  echo "# server_cpu_s=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN {printf "%.2f", (b - a) / 100}')" >>"$f"
  echo "# server_jit_s=$(awk -v a="$jit0" -v b="$jit1" 'BEGIN {printf "%.2f", (b - a) / 100}') settle_s=$settled" >>"$f"
  tcp_counters | tcp_delta "$RES/nstat.before" >>"$f"
  printf '   %s: %s req/s %s\n' "$w" "$(sed -n 's/^Requests\/sec:\s*//p' "$f")" \
    "$(grep -E 'Socket errors|Non-2xx' "$f" | tr -s ' ' | tr '\n' ' ')"
  append_noise "$f" "$noise"
}

# run_h2load SERVER ROUND PORT: workload i, h2c multiplexed (warm-up, then measured with CPU time).
run_h2load() {
  local server=$1 round=$2 port=$3 f cpu0 cpu1 url="http://127.0.0.1:$3/plaintext"
  f="$RES/h2/i_${server}_r$round.txt"
  taskset -c "$CLIENT_CPU" h2load -n "$I_WARMUP" -c 16 -m 32 "$url" >/dev/null 2>&1 || true
  echo "# h2load -n $I_REQUESTS -c 16 -m 32 $url" >"$f"
  cpu0=$(server_cpu_ticks)
  run_client "$f" taskset -c "$CLIENT_CPU" h2load -n "$I_REQUESTS" -c 16 -m 32 "$url" || echo "   h2load exited non-zero" >&2
  cpu1=$(server_cpu_ticks)
  echo "# server_cpu_s=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN {printf "%.2f", (b - a) / 100}')" >>"$f"
  printf '   i: %s\n' "$(grep -E '^finished' "$f")"
}

# run_open W SERVER ROUND PORT: one of the open-loop workloads e, f, g.
run_open() {
  local w=$1 server=$2 round=$3 port=$4 f noise0
  f="$RES/open/${w}_${server}_r$round.txt"
  noise0=$(noise_sample)
  case "$w" in
    e) open_loop "$port" --connections 50 search --start "$E_START" --step-seconds "$E_STEP" \
         --p99-ms "$E_P99_MS" >"$f" 2>&1 || true
       printf '   e: %s\n' "$(grep '^MAX' "$f" || tail -1 "$f")" ;;
    f) open_loop "$port" --connections 50 rate "$F_RATE" --seconds "$DURATION" >"$f" 2>&1 || true
       printf '   f: %s\n' "$(grep '^RESULT' "$f" | grep -o 'achieved_rps=[^ ]*\| p99_ms=[^ ]*\|server_cpu_us_per_req=[^ ]*' | tr '\n' ' ')" ;;
    g) # A cold or half-warm server spirals under this load (timeouts abort connections, the
       # reconnects eat the CPU), so every server first gets the same JIT warm-up on /slow.
       taskset -c "$CLIENT_CPU" wrk -t1 -c256 "-d${G_WARMUP}s" "http://127.0.0.1:$port/slow" >/dev/null 2>&1 || true
       open_loop "$port" --path /slow --connections 256 --max-connections "$G_CONNECTIONS" \
         --warmup 2 --warmup-rate "$G_SUSTAINED" rate "$G_RATE" --seconds "$DURATION" >"$f" 2>&1 || true
       printf '   g: %s\n' "$(grep '^RESULT' "$f" | grep -o 'achieved_rps=[^ ]*\| failed=[^ ]*\| p99_ms=[^ ]*' | tr '\n' ' ')" ;;
  esac
  # Over the client's whole run (its JVM start and 2 s warm-up too), not the measured seconds only.
  append_noise "$f" "$(noise_delta "$noise0" "$(noise_sample)")"
}

# Kernel TCP counters (whole machine, so other processes' traffic counts too), for diagnosis:
# listen-queue overflows, SYN retransmits, TIME_WAIT reuse, resets.
tcp_counters() {
  if command -v nstat >/dev/null; then
    nstat -az 2>/dev/null | awk '$1 ~ /ListenOverflows|ListenDrops|TCPSynRetrans|TWRecycled|TcpExtTW$|EstabResets|AbortOn|OutRsts|TCPTimeWaitOverflow/ {print $1, $2}'
  fi
}
tcp_delta() {  # stdin: counters after; $1: counters before
  awk 'NR == FNR {b[$1] = $2; next} {d = $2 - b[$1]; if (d != 0) s = s " " $1 "=" d}
       END {print "# kernel TCP counter deltas (machine-wide):" (s == "" ? " none" : s)}' "$1" -
}

{
  echo "date: $DATE"
  echo "servers: $SERVERS"
  echo "workloads: $WORKLOADS"
  echo "rounds: $ROUNDS (servers interleaved within each round; a fresh JVM per server per round)"
  echo "per workload: ${WARMUP} s wrk warm-up (discarded; ${FIRST_WARMUP} s before the first wrk workload of a fresh server), then ${JIT_SETTLE_STEP} s runs more while the JIT compiler threads took over ${JIT_SETTLE_PCT} % of the server's CPU in the last (up to ${JIT_SETTLE_MAX} s), then ${DURATION} s measured"
  echo "wrk: $(wrk -v 2>&1 | head -1)"
  echo "open-loop client: org.loommpm.bench.OpenLoop in its own JVM ($CLIENT_JVM_FLAGS), core $CLIENT_CPU"
  has_workload e && echo "e: search from $E_START req/s, steps of $E_STEP s, p99 limit $E_P99_MS ms"
  has_workload f && echo "f: $F_RATE req/s offered for $DURATION s (after a 2 s warm-up at that rate; when no wrk workload ran before it, after ${FIRST_WARMUP} s of wrk -c50 and the JIT settling too)"
  has_workload g && echo "g connections: $G_CONNECTIONS (after ${G_WARMUP} s of wrk -t1 -c256 on /slow and 2 s of OpenLoop at a quarter of the offered rate)"
  has_workload h && echo "h: $H_RUNS start-ups per server, on core(s) $H_SERVER_CPUS"
  has_workload h && echo "h servers: $H_SERVERS"
  has_workload i && echo "i: h2load $(h2load --version 2>/dev/null | head -1 | sed 's/^h2load //'), $I_WARMUP warm-up then $I_REQUESTS requests, servers: $H2_SERVERS"
  machine_summary
} >"$RES/meta.txt"
cat "$RES/meta.txt"

# g offers 4x what loom sustains on /slow: find that once, before the rounds, unless given.
G_SUSTAINED=""
if has_workload g; then
  if [ -z "$G_RATE" ]; then
    echo "== calibrating g: loom's sustained rate on /slow"
    start_server loom "$RES/logs/loom_calibration.log"
    # JIT warm-up first: a cold server spends most of its CPU compiling and fails the first steps.
    taskset -c "$CLIENT_CPU" wrk -t1 -c256 -d10s "http://127.0.0.1:$(port_of loom)/slow" >/dev/null 2>&1 || true
    open_loop "$(port_of loom)" --path /slow --connections 256 --max-connections "$G_CONNECTIONS" \
      search --start 2000 --step-seconds "$E_STEP" --p99-ms 50 >"$RES/open/g_calibration.txt" 2>&1 || true
    stop_server
    G_SUSTAINED=$(sed -n 's/^MAX rate=\([0-9]*\).*/\1/p' "$RES/open/g_calibration.txt")
    if [ -z "$G_SUSTAINED" ] || [ "$G_SUSTAINED" -le 0 ]; then
      # A noisy machine can fail even the first step; fall back to loom's bound for a 20 ms
      # handler: ThreadsPerChild (256) slots / 20 ms.
      echo "calibration failed (see open/g_calibration.txt); using 256 / 20 ms = 12800 req/s" >&2
      G_SUSTAINED=12800
    fi
    G_RATE=$((G_SUSTAINED * 4))
    echo "g: loom sustains $G_SUSTAINED req/s on /slow (p99 < 50 ms); offering $G_RATE" | tee -a "$RES/meta.txt"
  else
    G_SUSTAINED=$((G_RATE / 4))
    echo "g: offering G_RATE=$G_RATE (given); warm-up at $G_SUSTAINED" | tee -a "$RES/meta.txt"
  fi
fi

# The servers of one round: loom-noac (loom with AdmissionControl Off) only runs g.
ROUND_SERVERS=$SERVERS
if has_workload g && [[ " $SERVERS " == *" loom "* ]]; then ROUND_SERVERS="$SERVERS loom-noac"; fi

# The rounds only when a workload runs in them (h starts its own processes after them).
ROUND_COUNT=0
for w in $WORKLOADS; do [ "$w" = h ] || ROUND_COUNT=$ROUNDS; done
for round in $(seq "$ROUND_COUNT"); do
  for server in $ROUND_SERVERS; do
    port=$(port_of "$server")
    echo "== round $round/$ROUNDS: $server (port $port, load $(cut -d' ' -f1-3 /proc/loadavg))"
    if ! start_server "$server" "$RES/logs/${server}_r$round.log"; then
      echo "   $server failed to start; skipped this round" >&2
      continue
    fi
    warmup=$FIRST_WARMUP
    # e and f on a server no wrk workload has warmed yet get the same first warm-up (workload a):
    # their own 2 s at the offered rate is not enough. On 1 Dec 2026, WORKLOADS=f alone met a cold
    # Netty that could not hold 50,000 req/s (31,000-47,000 achieved, p99 1 s) while loom-mpm did.
    warmed=0
    for w in $WORKLOADS; do
      [ "$server" = loom-noac ] && [ "$w" != g ] && continue
      case "$w" in
        a | b | c | d) run_wrk "$w" "$server" "$round" "$port" "$warmup"; warmup=$WARMUP warmed=1 ;;
        e | f) if [ "$warmed" = 0 ]; then
                 warm_wrk a "$FIRST_WARMUP" "$port" "$RES/warmup/first_${server}_r$round.txt" >/dev/null
                 warmup=$WARMUP warmed=1
               fi
               run_open "$w" "$server" "$round" "$port" ;;
        g) run_open "$w" "$server" "$round" "$port" ;;
        h) continue ;;
        i) [[ " $H2_SERVERS " == *" $server "* ]] && run_h2load "$server" "$round" "$port" ;;
      esac
      if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "   $server died during workload $w" >&2
        break
      fi
    done
    stop_server
  done
done

# h: start-up, interleaved (A B C D A B C D ...), a fresh process each time, started in an empty
# directory (the jar's embedded default serves ./htdocs when there is one).
# startup_command SERVER PORT: sets H_CMD (the server's command) and H_PATH (what the probe GETs).
H_CMD=() H_PATH=/plaintext
startup_command() {
  local server=$1 port=$2
  # shellcheck disable=SC2206
  local pin=(taskset -c "$H_SERVER_CPUS" "$JAVA" $JVM_FLAGS)
  case "$server" in
    loom-jar) H_CMD=("${pin[@]}" -jar "$SERVER_JAR" -C "Listen 127.0.0.1:$port") H_PATH=/ ;;
    loom-jar-aot) H_CMD=("${pin[@]}" "$H_CACHE_OPTION" -jar "$SERVER_JAR" -C "Listen 127.0.0.1:$port") H_PATH=/ ;;
    loom-jar-nopreload) H_CMD=("${pin[@]}" -Dloom.preloadClasses=false -jar "$SERVER_JAR" -C "Listen 127.0.0.1:$port")
      H_PATH=/ ;;
    jdk) H_CMD=("${pin[@]}" -jar "$JDK_JAR" "$port" jdk) H_PATH=/plaintext ;;
    *) H_CMD=("${pin[@]}" -jar "$JAR" "$port" "$(server_impl "$server")") H_PATH=/plaintext ;;
  esac
}
if has_workload h; then
  H_DIR="$RES/startup-cwd"
  mkdir -p "$H_DIR"
  H_CACHE_OPTION=""
  if [[ " $H_SERVERS " == *" loom-jar-aot "* ]]; then
    # The training run: the same JVM flags, the same embedded default; the cache is the JDK's
    # AOT cache (25+) or a dynamic AppCDS archive (21-24), as aot-cache.sh picks.
    mkdir -p "$RES/startup-cache"
    H_CACHE_OPTION=$(cd "$H_DIR" && JAVA="$JAVA" JAVA_OPTS="$JVM_FLAGS" \
      "$ROOT_DIR/server-cli/bin/aot-cache.sh" "$RES/startup-cache/loom-mpm.aot" "$SERVER_JAR" \
      -C "Listen 127.0.0.1:0" 2>"$RES/startup-cache/aot-cache.log") \
      || { echo "aot-cache.sh failed:" >&2; cat "$RES/startup-cache/aot-cache.log" >&2; exit 1; }
    echo "h cache: loom-jar-aot starts with $H_CACHE_OPTION ($(head -1 "$RES/startup-cache/aot-cache.log"))" \
      | tee -a "$RES/meta.txt"
  fi
  for i in $(seq "$H_RUNS"); do
    for server in $H_SERVERS; do
      port=$(port_of "$server")
      startup_command "$server" "$port"
      # The probe on the load tool's core, like every client (the server re-pins itself).
      (cd "$H_DIR" && taskset -c "$CLIENT_CPU" "$JAVA" -cp "$JAR" org.loommpm.bench.StartupTime --path "$H_PATH" \
        "$port" "${H_CMD[@]}") >"$RES/startup/${server}_r$i.txt" 2>&1 || true
    done
    echo "== start-up run $i/$H_RUNS (load $(cut -d' ' -f1-3 /proc/loadavg)): $(for s in $H_SERVERS; do
      printf '%s %s  ' "$s" "$(sed -n 's/^STARTUP ms=//p' "$RES/startup/${s}_r$i.txt")"; done)"
  done
fi

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/meta.txt"
"$JAVA" -cp "$JAR" org.loommpm.bench.Report "$RES" "$OUT" >/dev/null
echo "results: $OUT (raw: $RES)"
