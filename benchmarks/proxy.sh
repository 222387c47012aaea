#!/usr/bin/env bash
# Reverse proxy side by side: loom-mpm ProxyPass vs nginx proxy_pass (upstream keepalive) vs
# Apache httpd mod_proxy (event MPM), in front of the same backend (see docs/benchmarks.md).
#
#   benchmarks/proxy.sh                         # 3 interleaved rounds, 10 s each after 10 s of warm-up
#   ROUNDS=1 DURATION=5 PEERS="loom nginx" benchmarks/proxy.sh
#
# Workload: wrk -t1 -c CONNS (32) keep-alive GET /plaintext through the proxy; the backend is one
# nginx worker answering `return 200 "Hello, World!"`, pinned with wrk to CLIENT_CPU (1); each
# proxy is pinned to SERVER_CPU (0) and configured for that one core as its documentation says:
# loom-mpm StartServers 1 (the JVM sees one CPU through the affinity mask), nginx
# worker_processes 1 with an upstream keepalive pool, httpd event MPM with one child process
# (ServerLimit 1, ThreadsPerChild 64). Client connections live as long as wrk keeps them everywhere
# (loom-mpm MaxKeepAliveRequests 0, nginx keepalive_requests 1000000, httpd MaxKeepAliveRequests 0):
# loom-mpm's default of 100, as httpd's, would close each one every 100 requests. No access log
# anywhere (nginx access_log off, no httpd CustomLog, loom-mpm CustomLog /dev/null, which it
# never formats). Proxy CPU per
# request = user + system time of the proxy's processes (/proc) over
# the measured run / requests (and, for loom-mpm, how much of it the JIT compiler threads took: a
# JVM still compiling counts that too; a starved round compiles late). The client core's share
# used by wrk and by the backend says whether the client side, not the proxy, limited req/s.
# Rounds are interleaved (loom, nginx, httpd, loom, ...) so the
# machine's noise falls on all; the table gives medians and same-round ratios.
# SYSCALLS=1 also counts each peer's system calls and context switches per request over the
# measured run (perf stat on the syscall tracepoints; it adds a little to every peer's CPU).
# The warm-up is two wrk runs, WARMUP s then WARMUP2 s: the second opens new connections, so the
# measured run's connection set-up finds a JVM peer's hot code compiled with that path in its
# profile. With one warm-up run, C2 deoptimized the hot methods when the measured run's
# connections arrived (112 methods made not entrant within a second, -XX:+PrintCompilation) and
# recompiled them inside the measured window (1.6-4.3 us per request of JIT; nginx and httpd are
# not affected).
# Environment: PEERS (loom nginx httpd), ROUNDS (3), DURATION (10), WARMUP (10), WARMUP2 (3), CONNS (32),
# SYSCALLS (0), OUT (docs/benchmarks/proxy-DATE.md), JVM_FLAGS (as common.sh); for a same-run A/B
# of two builds, BASE_JAR (another loom-mpm.jar) and the peer "base" in PEERS. SERVER_CPU_QUOTA (%
# of one core, as in run.sh) holds each proxy's processes to that share of core 0, so that the proxy,
# not wrk and the backend sharing core 1, sets the pace (unthrottled, both cores are near full).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

PEERS=${PEERS:-"loom nginx httpd"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-10}
WARMUP2=${WARMUP2:-3}
CONNS=${CONNS:-32}
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/proxy-$(date -u +%Y-%m-%d).md"}
LOOM_JAR="$ROOT_DIR/server-cli/target/loom-mpm.jar"
BASE_JAR=${BASE_JAR:-}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
HTTPD=$(command -v apache2 || echo /usr/sbin/apache2)
MODS=/usr/lib/apache2/modules
for t in "$NGINX" "$HTTPD" "$(command -v wrk)"; do
  [ -x "$t" ] || { echo "missing $t (apt-get install nginx apache2 wrk)" >&2; exit 1; }
done
[ -f "$LOOM_JAR" ] || (cd "$ROOT_DIR" && ./loom mvn -q -B -DskipTests -pl server-cli -am package)

BACKEND_PORT=$((PORT_BASE + 20))
declare -A PORT=([loom]=$((PORT_BASE + 21)) [nginx]=$((PORT_BASE + 22)) [httpd]=$((PORT_BASE + 23)) [base]=$((PORT_BASE + 24)))
RES=$(mktemp -d /tmp/loom-proxybench.XXXXXX)
HZ=$(getconf CLK_TCK)
BACKEND_PID=""
PEER_PID=""

cleanup() {
  stop_peer
  remove_quota_cgroup
  if [ -n "$BACKEND_PID" ]; then kill "$BACKEND_PID" 2>/dev/null || true; fi
  echo "raw output kept in $RES" >&2
}
trap cleanup EXIT

nginx_common() {  # $1 dir
  mkdir -p "$1/logs"
  cat <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/logs/error.log;
events { worker_connections 1024; }
CONF
}

# The backend: one nginx worker, the cheapest answer there is.
mkdir -p "$RES/backend"
{ nginx_common "$RES/backend"; cat <<CONF
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $RES/backend/t;
  server { listen 127.0.0.1:$BACKEND_PORT; location / { return 200 "Hello, World!"; } }
}
CONF
} >"$RES/backend/nginx.conf"
taskset -c "$CLIENT_CPU" "$NGINX" -p "$RES/backend" -c "$RES/backend/nginx.conf" >"$RES/backend/out.txt" 2>&1 &
BACKEND_PID=$!

mkdir -p "$RES/nginx"
{ nginx_common "$RES/nginx"; cat <<CONF
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $RES/nginx/t;
  proxy_temp_path $RES/nginx/p;
  upstream backend { server 127.0.0.1:$BACKEND_PORT; keepalive 64; }
  server {
    listen 127.0.0.1:${PORT[nginx]};
    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
} >"$RES/nginx/nginx.conf"

mkdir -p "$RES/httpd/logs"
cat >"$RES/httpd/httpd.conf" <<CONF
ServerRoot $RES/httpd
PidFile $RES/httpd/httpd.pid
ErrorLog $RES/httpd/logs/error.log
LoadModule mpm_event_module $MODS/mod_mpm_event.so
LoadModule authz_core_module $MODS/mod_authz_core.so
LoadModule proxy_module $MODS/mod_proxy.so
LoadModule proxy_http_module $MODS/mod_proxy_http.so
User nobody
Group nogroup
Listen 127.0.0.1:${PORT[httpd]}
ServerName 127.0.0.1
# One core: one child process (the event MPM's threads share it), as the MPM docs size it.
StartServers 1
ServerLimit 1
ThreadsPerChild 64
ThreadLimit 64
MaxRequestWorkers 64
MinSpareThreads 1
MaxSpareThreads 64
KeepAlive On
MaxKeepAliveRequests 0
ProxyPass / http://127.0.0.1:$BACKEND_PORT/
CONF

start_peer() {  # $1 peer
  local p=$1 i
  require_quota_cgroup || return 1
  case "$p" in
    loom | base)
      local jar=$LOOM_JAR
      if [ "$p" = base ]; then jar=${BASE_JAR:?"the peer base needs BASE_JAR"}; fi
      # shellcheck disable=SC2086
      (in_quota taskset -c "$SERVER_CPU" "$JAVA" $JVM_FLAGS -jar "$jar" -C "Listen 127.0.0.1:${PORT[$p]}" \
        -C "StartServers 1" -C "MaxKeepAliveRequests 0" -C "CustomLog /dev/null common" \
        -C "ProxyPass / http://127.0.0.1:$BACKEND_PORT/") >"$RES/$p.out" 2>&1 &
      PEER_PID=$! ;;
    nginx)
      (in_quota taskset -c "$SERVER_CPU" "$NGINX" -p "$RES/nginx" -c "$RES/nginx/nginx.conf") >"$RES/nginx.out" 2>&1 &
      PEER_PID=$! ;;
    httpd)
      (in_quota taskset -c "$SERVER_CPU" "$HTTPD" -f "$RES/httpd/httpd.conf" -DFOREGROUND) >"$RES/httpd.out" 2>&1 &
      PEER_PID=$! ;;
  esac
  for i in $(seq 300); do
    if curl -s -o /dev/null "http://127.0.0.1:${PORT[$p]}/plaintext"; then return 0; fi
    sleep 0.1
  done
  echo "$p did not answer through the proxy" >&2
  return 1
}

stop_peer() {
  local i
  [ -n "$PEER_PID" ] || return 0
  kill -TERM "$PEER_PID" 2>/dev/null || true
  for i in $(seq 100); do kill -0 "$PEER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$PEER_PID" 2>/dev/null || true
  wait "$PEER_PID" 2>/dev/null || true
  PEER_PID=""
}

tree_ticks() {  # utime + stime of PEER_PID and its descendants (httpd's child process)
  local pids total=0 p t
  pids="$PEER_PID $(pgrep -P "$PEER_PID" | tr '\n' ' ')"
  for p in $pids; do
    t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}

ticks_of() {  # utime + stime of one process
  awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

# run_wrk URL SECONDS OUTFILE: wrk pinned to CLIENT_CPU; prints the CPU ticks wrk used (reaped by
# the shell, whose children's times then hold them)
run_wrk() {
  sh -c 'taskset -c "$0" wrk -t1 -c "$1" -d "$2s" "$3" >"$4" 2>&1; awk "{print \$16 + \$17}" /proc/$$/stat' \
    "$CLIENT_CPU" "$CONNS" "$2" "$1" "$3"
}

SYSCALLS=${SYSCALLS:-0}
SYSCALL_EVENTS=context-switches
for e in read recvfrom readv write sendto writev sendmsg epoll_ctl epoll_wait futex ioctl sched_yield; do
  SYSCALL_EVENTS="$SYSCALL_EVENTS,syscalls:sys_enter_$e"
done
if [ "$SYSCALLS" = 1 ] && ! command -v perf >/dev/null; then
  echo "SYSCALLS=1 needs perf (apt-get install linux-perf)" >&2; exit 1
fi
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A RPS CPU JIT CLIENT BACKEND
for round in $(seq "$ROUNDS"); do
  for p in $PEERS; do
    start_peer "$p"
    url="http://127.0.0.1:${PORT[$p]}/plaintext"
    run_wrk "$url" "$WARMUP" "$RES/warmup_${p}_r$round.txt" >/dev/null
    run_wrk "$url" "$WARMUP2" "$RES/warmup2_${p}_r$round.txt" >/dev/null
    before=$(tree_ticks); jit_before=$(jit_ticks_of "$PEER_PID"); backend_before=$(ticks_of "$BACKEND_PID")
    if [ "$SYSCALLS" = 1 ]; then
      perf stat -x, -e "$SYSCALL_EVENTS" -p "$PEER_PID$(pgrep -P "$PEER_PID" | sed 's/^/,/' | tr -d '\n')" \
        -o "$RES/syscalls_${p}_r$round.txt" -- sleep "$((DURATION + 1))" &
      STAT_PID=$!
    fi
    client=$(run_wrk "$url" "$DURATION" "$RES/run_${p}_r$round.txt")
    after=$(tree_ticks); jit_after=$(jit_ticks_of "$PEER_PID"); backend_after=$(ticks_of "$BACKEND_PID")
    reqs=$(awk '/requests in/ {print $1}' "$RES/run_${p}_r$round.txt")
    errs=$(awk '/Non-2xx|Socket errors/ {print}' "$RES/run_${p}_r$round.txt" | tr '\n' ' ')
    rps=$(awk -v n="$reqs" -v d="$DURATION" 'BEGIN {printf "%.0f", n / d}')
    us=$(awk -v t=$((after - before)) -v hz="$HZ" -v n="$reqs" 'BEGIN {printf "%.1f", t * 1e6 / hz / n}')
    RPS[$p,$round]=$rps
    CPU[$p,$round]=$us
    JIT[$p,$round]=$(awk -v t=$((jit_after - jit_before)) -v hz="$HZ" -v n="$reqs" 'BEGIN {printf "%.1f", t * 1e6 / hz / n}')
    CLIENT[$p,$round]=$(awk -v t="$client" -v hz="$HZ" -v d="$DURATION" 'BEGIN {printf "%.0f", t * 100 / hz / d}')
    BACKEND[$p,$round]=$(awk -v t=$((backend_after - backend_before)) -v hz="$HZ" -v d="$DURATION" 'BEGIN {printf "%.0f", t * 100 / hz / d}')
    echo "round $round $p: $rps req/s, proxy cpu $us us/req (JIT ${JIT[$p,$round]}), client core: wrk ${CLIENT[$p,$round]}%," \
      "backend ${BACKEND[$p,$round]}% ${errs:+($errs)} load $(cut -d' ' -f1 /proc/loadavg)"
    if [ "$SYSCALLS" = 1 ]; then
      wait "$STAT_PID" || true
      echo "  per request: $(awk -F, -v n="$reqs" '$3 != "" {sub(/.*sys_enter_/, "", $3); if ($1 > 0) printf "%s %.2f, ", $3, $1 / n}' \
        "$RES/syscalls_${p}_r$round.txt")"
    fi
    stop_peer
  done
done

median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
{
  echo "# Reverse proxy: loom-mpm ProxyPass vs nginx proxy_pass vs httpd mod_proxy ($(date -u +%Y-%m-%d))"
  echo
  machine_summary | sed "s/^load average at start: .*/load average at start: $LOAD_AT_START, at the end: $(cut -d' ' -f1-3 \/proc\/loadavg) (other processes on this machine add noise)/"
  echo "wrk -t1 -c$CONNS keep-alive GET, ${WARMUP} s + ${WARMUP2} s warm-up (two wrk runs) + ${DURATION} s measured per peer and round; $ROUNDS interleaved rounds;"
  echo "backend: one nginx worker (return 200), on the client's core. nginx $("$NGINX" -v 2>&1 | sed 's/.*\///'), httpd $("$HTTPD" -v | sed -n 's/Server version: Apache\///p')"
  echo
  echo "| peer | req/s (median) | proxy CPU us/req (median) | of which JIT compiler threads | wrk's CPU share of its core | backend's share | rounds req/s | rounds us/req |"
  echo "|---|---|---|---|---|---|---|---|"
  for p in $PEERS; do
    rs=""; cs=""; js=""; ws=""; bs=""
    for r in $(seq "$ROUNDS"); do
      rs="$rs ${RPS[$p,$r]}"; cs="$cs ${CPU[$p,$r]}"; js="$js ${JIT[$p,$r]}"; ws="$ws ${CLIENT[$p,$r]}"; bs="$bs ${BACKEND[$p,$r]}"
    done
    echo "| $p | $(echo $rs | median) | $(echo $cs | median) | $(echo $js | median) | $(echo $ws | median)% | $(echo $bs | median)% | $rs | $cs |"
  done
  echo
  echo "Same-round ratios of req/s (median over rounds):"
  for p in $PEERS; do
    [ "$p" = loom ] && continue
    rat=""
    for r in $(seq "$ROUNDS"); do
      rat="$rat $(awk -v a="${RPS[loom,$r]}" -v b="${RPS[$p,$r]}" 'BEGIN {printf "%.2f", a / b}')"
    done
    echo "- loom / $p: $(echo $rat | median) (rounds:$rat)"
  done
  echo
  echo "Same-round ratios of proxy CPU per request (median over rounds; below 1 = loom cheaper):"
  for p in $PEERS; do
    [ "$p" = loom ] && continue
    rat=""
    for r in $(seq "$ROUNDS"); do
      rat="$rat $(awk -v a="${CPU[loom,$r]}" -v b="${CPU[$p,$r]}" 'BEGIN {printf "%.2f", a / b}')"
    done
    echo "- loom / $p: $(echo $rat | median) (rounds:$rat)"
  done
} | tee "$OUT"
