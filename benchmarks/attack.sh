#!/usr/bin/env bash
# The attack campaign of issue #21 (HTTP/1.1, TLS, static files, file descriptors, logs): for each
# attack a fresh server pinned to SERVER_CPU, the attack client (H1Attack, h2load, curl) for
# DURATION s on CLIENT_CPU, and meanwhile NormalClient sending RATE GETs per second over HTTP/1.1
# with a TIMEOUT each. One markdown row per attack: what the attacker got, the normal client's
# p99 and losses, the server's CPU (% of one core), busy worker slots, threads and heap.
# HTTP/2 attacks are h2attack.sh's. Everything on 127.0.0.1; every server is one this script started.
#
#   benchmarks/attack.sh                                   # every attack
#   ATTACKS="slowloris fd-exhaustion" benchmarks/attack.sh
#   SERVER_JAR=/tmp/base/server-cli/target/loom-mpm.jar BENCH_SERVER_JAR=/tmp/base/benchmarks/target/loom-mpm-bench.jar \
#     OUT=/tmp/before.md benchmarks/attack.sh              # the same attacks against another build
#
# ATTACKS: none slowloris slow-body idle overload overload-ka malformed fd-exhaustion static
# log-full log-deleted tls-hold tls-probes ws-fragments tls-flood. Environment: DURATION (20 s),
# RATE (20 req/s), TIMEOUT (5 s), SLOW_CONNS (1000), BODY_CONNS (300), FD_CONNS (2000), FD_LIMIT
# (512), OVERLOAD_CONNS (1000), OVERLOAD_KA_CONNS (5000), NEWCOMER_RATE (4 new connections/s),
# NEWCOMER_TIMEOUT (10 s), STATUS_TIMEOUT (3 s), WS_CONNS (200), WS_JVM_FLAGS (-Xms128m -Xmx128m:
# after JVM_FLAGS, so they win), ATTACK_PORT_BASE (18490),
# SERVER_JAR, BENCH_SERVER_JAR (the servers; the attack clients always come from this checkout's
# bench jar), JVM_FLAGS, SERVER_CPU (0), CLIENT_CPU (1), BUILD=1, OUT (markdown report), KEEP=1
# (keep the temp dir with the server logs).
#
# overload-ka (issue #50, fair admission): keep-alive overload of the bench app's 20 ms blocking
# /slow, `wrk -c OVERLOAD_KA_CONNS --timeout 10s` for DURATION s. Instead of the keep-alive normal
# client, a newcomer probe opens a new connection every 1/NEWCOMER_RATE s and times its first
# response (GET /plaintext, `Connection: close`, NormalClient --new-connection; "lost" = no answer
# within NEWCOMER_TIMEOUT), and /server-status?auto is asked once a second, each time on a new
# connection (answered within STATUS_TIMEOUT, of asked); wrk is not reniced (the load measured,
# it shares CLIENT_CPU with the probes). Row: wrk's throughput and p99, newcomer
# p50/p99/lost, status answered/asked, server CPU. Compare with LOOM_ADMISSION=off (the bench
# app's AdmissionControl Off) and with another build (BENCH_SERVER_JAR=...):
#   ATTACKS=overload-ka DURATION=30 benchmarks/attack.sh
#
# ws-fragments (issue #50 item 5): WS_CONNS WebSockets to the bench app's /ws echo (WsFragmentAttack),
# each sending a 900 KiB fragment of a binary message that never ends, then one byte of
# continuation per second, reconnecting when the server closes it; the server runs with
# WS_JVM_FLAGS added (a 128 MiB heap, where 200 x 900 KiB cannot fit). The row gives the close
# codes the attacker got (1009: the input budget refused the message, 1008: WebSocketMessageTimeout),
# the server's input budget (high water, max, refusals: LoomInputBudget* of /server-status?auto),
# the heap used at most, the normal client's losses and whether the server stayed up.
#   ATTACKS=ws-fragments DURATION=40 benchmarks/attack.sh
#
# tls-flood (issue #50 item 9): TlsFlood opens RATE_HS (200) new TLS connections a second to the
# jar's TLS listener (JDK TLS, an RSA-2048 certificate), each a full handshake (a server name of its
# own, so no session is resumed), then one GET each with TLS_FLOOD_REQUEST=1, else none. The normal
# client is an established keep-alive TLS connection (NormalClient --one-connection, opened before
# the flood starts), RATE GETs a second on it: its p99 and losses are the row's normal column; the
# result column has the flood's handshakes completed, refused by the server, timed out, and their
# p50/p99. TLS_FLOOD_CONF: extra jar directives (e.g. "TlsHandshakeConcurrency 1" or
# "ClientChargeRate 0" to compare without per-address charging, which refuses a single flooding
# address after its burst).
#
#   ATTACKS=tls-flood DURATION=20 RATE_HS=400 benchmarks/attack.sh
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

ATTACKS=${ATTACKS:-"none slowloris slow-body idle overload overload-ka malformed fd-exhaustion static log-full log-deleted tls-hold tls-probes ws-fragments tls-flood"}
RATE_HS=${RATE_HS:-200}
TLS_FLOOD_REQUEST=${TLS_FLOOD_REQUEST:-0}
TLS_FLOOD_CONF=${TLS_FLOOD_CONF:-}
DURATION=${DURATION:-20}
RATE=${RATE:-20}
TIMEOUT=${TIMEOUT:-5}
SLOW_CONNS=${SLOW_CONNS:-1000}
BODY_CONNS=${BODY_CONNS:-300}
FD_CONNS=${FD_CONNS:-2000}
FD_LIMIT=${FD_LIMIT:-512}
OVERLOAD_CONNS=${OVERLOAD_CONNS:-1000}
WS_CONNS=${WS_CONNS:-200}
WS_JVM_FLAGS=${WS_JVM_FLAGS:-"-Xms128m -Xmx128m"}
OVERLOAD_KA_CONNS=${OVERLOAD_KA_CONNS:-5000}
NEWCOMER_RATE=${NEWCOMER_RATE:-4}
NEWCOMER_TIMEOUT=${NEWCOMER_TIMEOUT:-10}
STATUS_TIMEOUT=${STATUS_TIMEOUT:-3}
ATTACK_PORT_BASE=${ATTACK_PORT_BASE:-18490}
OUT=${OUT:-}
SERVER_JAR=${SERVER_JAR:-"$ROOT_DIR/server-cli/target/loom-mpm.jar"}
BENCH_SERVER_JAR=${BENCH_SERVER_JAR:-"$JAR"}

build_jars "$SERVER_JAR" -o
set_pins

TMP=$(mktemp -d)
SERVER_PID="" SAMPLER_PID=""
cleanup() {
  [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null
  stop_server
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
mkdir -p "$TMP/docroot/sub" "$TMP/outside"
head -c $((1024 * 1024)) /dev/urandom >"$TMP/docroot/big.bin"
echo "hello from loom-mpm" >"$TMP/docroot/small.txt"
echo "secret outside the root" >"$TMP/outside/secret.txt"
ln -s "$TMP/outside" "$TMP/docroot/out"        # a symlink leading out of DocumentRoot
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1

# start_target jar|bench|tls PORT LOG [EXTRA_CONF]: starts a server pinned to SERVER_CPU (a
# subshell with `ulimit -n FD_LIMIT` for fd-exhaustion), waits until it answers.
start_target() {
  local target=$1 port=$2 log=$3 extra=${4:-} i scheme=http limit=""
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use by another process; set ATTACK_PORT_BASE" >&2
    return 1
  fi
  [ "$attack" = fd-exhaustion ] && limit="ulimit -n $FD_LIMIT;"
  if [ "$target" = bench ]; then
    # BENCH_HOST: how a BENCH_SERVER_JAR built before -Dbench.host (bench apps bind 127.0.0.1
    # by default since) is kept on loopback.
    # shellcheck disable=SC2086
    BENCH_HOST=127.0.0.1 "${PIN_SERVER[@]}" bash -c "$limit exec \"\$0\" \"\$@\"" "$JAVA" $JVM_FLAGS $ATTACK_JVM_FLAGS \
      -jar "$BENCH_SERVER_JAR" "$port" loom >"$log" 2>&1 &
  else
    local listen="Listen 127.0.0.1:$port"
    if [ "$target" = tls ]; then
      listen="Listen 127.0.0.1:$port https
SSLCertificateFile $TMP/cert.pem
SSLCertificateKeyFile $TMP/key.pem"
      scheme=https
    fi
    cat >"$TMP/loom-$port.conf" <<EOF
$listen
DocumentRoot $TMP/docroot
<Location /server-status>
    SetHandler server-status
</Location>
LogLevel info
ErrorLog $log.error
CustomLog ${ACCESS_LOG:-/dev/null} common
$extra
EOF
    # shellcheck disable=SC2086
    "${PIN_SERVER[@]}" bash -c "$limit exec \"\$0\" \"\$@\"" "$JAVA" $JVM_FLAGS $ATTACK_JVM_FLAGS -jar "$SERVER_JAR" \
      -f "$TMP/loom-$port.conf" >"$log" 2>&1 &
  fi
  SERVER_PID=$!
  for i in $(seq 300); do
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "server exited during start-up:" >&2; cat "$log"* >&2; return 1; }
    curl -sk -m 1 -o /dev/null "$scheme://127.0.0.1:$port/server-status?auto" && return 0
    sleep 0.1
  done
  echo "server not answering within 30 s" >&2
  return 1
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat" 2>/dev/null || echo 0; }
HZ=$(getconf CLK_TCK)
kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }   # kv KEY LINE

# sampler PORT SCHEME FILE: every 0.5 s busy slots, threads, open fds; heap (jcmd) every 2 s.
sampler() {
  local port=$1 scheme=$2 n=0 s t f h
  set +e +o pipefail
  while :; do
    s=$(curl -sk -m 2 "$scheme://127.0.0.1:$port/server-status?auto" 2>/dev/null | awk -F': ' '/^BusyWorkers/{b=$2} END{print (b == "" ? "x" : b)}')
    t=$(awk '/^Threads/{print $2}' "/proc/$SERVER_PID/status" 2>/dev/null)
    f=$(ls "/proc/$SERVER_PID/fd" 2>/dev/null | wc -l)
    h=""
    if [ $((n % 4)) = 0 ]; then
      h=$(timeout 5 "$JCMD" "$SERVER_PID" GC.heap_info 2>/dev/null |
        awk '/PSYoungGen|ParOldGen|garbage-first heap|def new generation|tenured generation/ {
               for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); u += v } }
             END { if (u != "") printf "%d", u / 1024 }')
    fi
    echo "${s:-x} ${t:-0} ${f:-0} ${h:--}"
    n=$((n + 1))
    sleep 0.5
  done
}

# attack_cmd ATTACK PORT: the attacker's command (run for DURATION s on CLIENT_CPU, reniced).
attack_cmd() {
  local a=$1 port=$2 h1=("$JAVA" -cp "$JAR" org.loommpm.bench.attack.H1Attack --port "$port" --duration "$DURATION")
  case "$a" in
    none | static | log-full | log-deleted) echo "" ;;
    slowloris) echo "${h1[*]} --attack slowloris --conns $SLOW_CONNS --interval 3" ;;
    slow-body) echo "${h1[*]} --attack slow-body --conns $BODY_CONNS --interval 1 --path /plaintext" ;;
    idle) echo "${h1[*]} --attack idle --conns $SLOW_CONNS" ;;
    fd-exhaustion) echo "${h1[*]} --attack idle --conns $FD_CONNS" ;;
    malformed) echo "${h1[*]} --attack malformed --conns 4 --path /plaintext" ;;
    tls-hold) echo "${h1[*]} --attack tls-hold --conns $SLOW_CONNS" ;;
    tls-probes) echo "${h1[*]} --attack tls-probes --conns 4" ;;
    tls-flood) echo "$JAVA -cp $JAR org.loommpm.bench.attack.TlsFlood --port $port --duration $DURATION --rate $RATE_HS$([ "$TLS_FLOOD_REQUEST" = 1 ] && echo " --request")" ;;
    overload) echo "h2load --h1 -D $DURATION -c $OVERLOAD_CONNS -t 1 http://127.0.0.1:$port/slow" ;;
    ws-fragments) echo "$JAVA -cp $JAR org.loommpm.bench.attack.WsFragmentAttack --port $port --duration $DURATION --conns $WS_CONNS --interval 1 --path /ws" ;;
    overload-ka) echo "wrk -t 1 -c $OVERLOAD_KA_CONNS -d ${DURATION}s --timeout 10s --latency http://127.0.0.1:$port/slow" ;;
  esac
}

target_of() {
  case "$1" in
    slow-body | overload | overload-ka | malformed | ws-fragments) echo bench ;;
    tls-hold | tls-probes | tls-flood) echo tls ;;
    *) echo jar ;;
  esac
}

# static_checks PORT: the static-file attacks with curl, one line each: request, status, bytes.
static_checks() {
  local port=$1 u ranges i
  echo "| request | status, bytes |"
  echo "| --- | --- |"
  for u in "/%2e%2e/%2e%2e/%2e%2e/etc/passwd" "/%252e%252e/%252e%252e/etc/passwd" "/../../../etc/passwd" \
    "/..%2f..%2f..%2fetc/passwd" "/..%5c..%5c..%5cetc%5cpasswd" "/sub\\..\\..\\etc\\passwd" "/small.txt%00.png" \
    "/small.txt%2500" "/out/secret.txt" "/out/" "/sub/%2e%2e/small.txt"; do
    printf '| `GET %s` | %s |\n' "$u" "$(curl -s --path-as-is -o /dev/null -w '%{http_code}, %{size_download} bytes' "http://127.0.0.1:$port$u")"
  done
  # 1,000 one-byte ranges, adjacent (not overlapping), short enough for LimitRequestFieldSize.
  ranges="bytes=0-0"
  for i in $(seq 1 999); do ranges="$ranges,$i-$i"; done
  printf '| `Range:` 1,000 parts on a 1 MB file | %s |\n' \
    "$(curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes, %{time_total} s' -H "Range: $ranges" "http://127.0.0.1:$port/big.bin")"
  ranges="bytes=0-0"
  for i in $(seq 2 2 30); do ranges="$ranges,$i-$i"; done
  printf '| `Range:` 16 parts | %s |\n' \
    "$(curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes' -H "Range: $ranges" "http://127.0.0.1:$port/big.bin")"
  printf '| `Range:` 200 overlapping parts `0-` | %s |\n' \
    "$(curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes' -H "Range: bytes=$(printf '0-,%.0s' $(seq 199))0-" "http://127.0.0.1:$port/big.bin")"
}

# newcomer_probe PORT OUT STATUS_OUT: for DURATION - 5 s, a new connection every 1/NEWCOMER_RATE s
# with one GET /plaintext, and /server-status?auto once a second on a new connection each time.
newcomer_probe() {
  local port=$1 out=$2 status_out=$3 status_pid
  "${PIN_CLIENT[@]}" timeout $((DURATION + STATUS_TIMEOUT + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.NormalClient \
    --url "http://127.0.0.1:$port/server-status?auto" --rate 1 --duration $((DURATION - 5)) --timeout "$STATUS_TIMEOUT" \
    --new-connection >"$status_out" 2>&1 &
  status_pid=$!
  "${PIN_CLIENT[@]}" timeout $((DURATION + NEWCOMER_TIMEOUT + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.NormalClient \
    --url "http://127.0.0.1:$port/plaintext" --rate "$NEWCOMER_RATE" --duration $((DURATION - 5)) \
    --timeout "$NEWCOMER_TIMEOUT" --new-connection >"$out" 2>&1 || true
  wait "$status_pid" || true
}

# requests PORT N: N GETs of /small.txt, prints how many were 200.
requests() {
  local ok=0 i
  for i in $(seq "$2"); do
    [ "$(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/small.txt")" = 200 ] && ok=$((ok + 1))
  done
  echo "$ok"
}

# log_scenario full|deleted PORT LOG: the log-target attacks; prints the result text.
log_scenario() {
  local kind=$1 port=$2 log=$3 access=$TMP/access-$port.log ok1 ok2 ok3 lines
  if [ "$kind" = full ]; then
    # The access log is a symlink to /dev/full (every write: ENOSPC), as a full file system.
    # Then space comes back (the link is replaced by a real file) and SIGHUP reopens it.
    ok1=$(requests "$port" 200)
    sleep 0.5
    ok2=$(requests "$port" 50)
    rm -f "$access"
    kill -HUP "$SERVER_PID"
    sleep 3
    ok3=$(requests "$port" 20)
    sleep 0.5
    lines=$(wc -l <"$access" 2>/dev/null || echo 0)
    echo "200 OK: $ok1/200 while full, $ok2/50 after; after space + SIGHUP: $ok3/20, $lines lines in the new file"
  else
    ok1=$(requests "$port" 20)
    rm -f "$access"
    ok2=$(requests "$port" 20)
    kill -HUP "$SERVER_PID"
    sleep 3
    ok3=$(requests "$port" 20)
    sleep 0.5
    lines=$(wc -l <"$access" 2>/dev/null || echo 0)
    echo "200 OK: $ok1/20 before, $ok2/20 with the file removed, $ok3/20 after SIGHUP; $lines lines in the recreated file"
  fi
}

MACHINE=$(machine_summary)
ROWS=()
DETAILS=()
run=0
for attack in $ATTACKS; do
  target=$(target_of "$attack")
  port=$((ATTACK_PORT_BASE + run))
  run=$((run + 1))
  log="$TMP/server-$run.log"
  scheme=http
  [ "$target" = tls ] && scheme=https
  echo "== $attack on $target (port $port)" >&2
  ACCESS_LOG=""
  ATTACK_JVM_FLAGS=""
  [ "$attack" = ws-fragments ] && ATTACK_JVM_FLAGS=$WS_JVM_FLAGS
  case "$attack" in
    log-full) ln -sf /dev/full "$TMP/access-$port.log"; ACCESS_LOG=$TMP/access-$port.log ;;
    log-deleted) ACCESS_LOG=$TMP/access-$port.log ;;
  esac
  extra=""
  # The established client keeps its one connection for the whole run (no MaxKeepAliveRequests).
  [ "$attack" = tls-flood ] && extra="MaxKeepAliveRequests 0
$TLS_FLOOD_CONF"
  start_target "$target" "$port" "$log" "$extra"
  sampler "$port" "$scheme" >"$TMP/samples-$run" 2>/dev/null &
  SAMPLER_PID=$!
  cmd=$(attack_cmd "$attack" "$port")
  attack_pid="" normal_pid=""
  if [ "$attack" = tls-flood ]; then
    # The established client: its connection and handshake before the flood, measured during it.
    "${PIN_CLIENT[@]}" timeout $((DURATION + TIMEOUT + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.NormalClient \
      --url "https://127.0.0.1:$port/small.txt" --rate "$RATE" --duration $((DURATION - 5)) --timeout "$TIMEOUT" \
      --delay 3 --one-connection >"$TMP/normal-$run" 2>&1 &
    normal_pid=$!
    sleep 1.5
  fi
  t0=$(date +%s.%N) c0=$(cpu_ticks)
  if [ -n "$cmd" ]; then
    # The attackers are reniced so the normal client keeps its share of CLIENT_CPU; overload-ka's
    # wrk is the load being measured, and reniced it sent nothing at all on a busy machine.
    niceness=19
    [ "$attack" = overload-ka ] && niceness=0
    # shellcheck disable=SC2086
    "${PIN_CLIENT[@]}" nice -n "$niceness" timeout $((DURATION + 60)) $cmd >"$TMP/attack-$run" 2>&1 &
    attack_pid=$!
  fi
  result=""
  normal="-"
  probe_url="http://127.0.0.1:$port/small.txt"
  [ "$target" = bench ] && probe_url="http://127.0.0.1:$port/plaintext"
  case "$attack" in
    static) result="see below"; static_checks "$port" >"$TMP/attack-$run" ;;
    log-full | log-deleted) result=$(log_scenario "${attack#log-}" "$port" "$log") ;;
    tls-hold | tls-probes) sleep 3 ;;
  esac
  if [ "$attack" = overload-ka ]; then
    # Newcomers and the status page, each request on a new connection, side by side.
    sleep 3 # the attack under way
    newcomer_probe "$port" "$TMP/normal-$run" "$TMP/status-$run"
    normal=$(grep '^NORMAL' "$TMP/normal-$run" || echo "NORMAL failed")
    status=$(grep '^NORMAL' "$TMP/status-$run" || echo "NORMAL failed")
    normal="newcomers p50 $(kv p50_ms "$normal") ms, p99 $(kv p99_ms "$normal") ms, lost $(( $(kv timeouts "$normal") + $(kv failures "$normal") )) (non-200 $(kv non200 "$normal")) of $(kv sent "$normal")"
    result="status answered $(( $(kv sent "$status") - $(kv timeouts "$status") - $(kv failures "$status") - $(kv non200 "$status") ))/$(kv sent "$status") within ${STATUS_TIMEOUT} s"
  elif [ "$target" != tls ] && [ "$attack" != static ] && [ "${attack#log-}" = "$attack" ]; then
    sleep 3 # the attack under way
    "${PIN_CLIENT[@]}" timeout $((DURATION + TIMEOUT + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.NormalClient \
      --url "$probe_url" --rate "$RATE" --duration $((DURATION - 5)) --timeout "$TIMEOUT" --http1 >"$TMP/normal-$run" 2>&1 || true
  elif [ -n "$normal_pid" ]; then
    wait "$normal_pid" || true
  fi
  if [ -f "$TMP/normal-$run" ]; then
    normal=$(grep '^NORMAL' "$TMP/normal-$run" || echo "NORMAL failed")
    normal="$(kv p99_ms "$normal") ms, $(kv timeouts "$normal")/$(kv failures "$normal")/$(kv non200 "$normal") of $(kv sent "$normal")"
  fi
  [ -n "$attack_pid" ] && { wait "$attack_pid" || true; }
  t1=$(date +%s.%N) c1=$(cpu_ticks)
  recovery="-"
  if [ "$attack" = fd-exhaustion ] || [ "$attack" = overload ] || [ "$attack" = overload-ka ] || [ "$attack" = slowloris ]; then
    # Recovery: the first 200 after the attack's connections are gone.
    tr0=$(date +%s.%N)
    for i in $(seq 100); do
      [ "$(curl -sk -m 1 -o /dev/null -w '%{http_code}' "$probe_url")" = 200 ] && break
      sleep 0.1
    done
    recovery=$(awk -v a="$tr0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f s", b - a}')
  fi
  kill "$SAMPLER_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=""
  alive=yes
  kill -0 "$SERVER_PID" 2>/dev/null || alive="no (exited)"
  # -k: the TLS targets' certificate is self-signed; || true: a server that died answers nothing.
  budget=$( (curl -sk -m 2 "$scheme://127.0.0.1:$port/server-status?auto" 2>/dev/null || true) |
    awk -F': ' '/^LoomInputBudgetHighWater/{h=$2} /^LoomInputBudgetMax/{m=$2} /^LoomInputBudgetRefusals/{r=$2}
      END{if (m != "") printf "input budget high water %.1f of %.1f MiB, %d refusals", h / 1048576, m / 1048576, r}')
  stop_server
  cpu=$(awk -v c="$((c1 - c0))" -v hz="$HZ" -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", c / hz / (b - a) * 100}')
  samples=$(awk '$1 != "x" {if ($1 > b) b = $1} {if ($2 > t) t = $2; if ($3 > f) f = $3} $4 != "-" {if ($4 > h) h = $4}
    END{printf "%d | %d | %d | %d", b, t, f, h}' "$TMP/samples-$run")
  atk=$(grep -E '^H1ATTACK|^TLSFLOOD' "$TMP/attack-$run" 2>/dev/null || true)
  if [ -z "$result" ]; then
    case "$attack" in
      none) result="-" ;;
      overload) result=$(grep -E '^requests:|^status codes:' "$TMP/attack-$run" | tr '\n' ' ' | tr -s ' ') ;;
      tls-flood) result="$(kv completed "$atk") of $(kv attempted "$atk") handshakes completed, $(kv refused "$atk") refused, $(kv timeouts "$atk") timed out, $(kv unfinished "$atk") unfinished (handshake p50 $(kv hs_p50_ms "$atk") ms, p99 $(kv hs_p99_ms "$atk") ms; $RATE_HS/s)" ;;
      malformed | tls-probes) result="$(kv probes_run "$atk") probes, $(kv left_open "$atk") left open (table below)" ;;
      ws-fragments)
        atk=$(grep -E '^WSATTACK' "$TMP/attack-$run" 2>/dev/null || true)
        result="$(kv handshakes "$atk") sockets opened, closes by code $(kv closes "$atk"), $(kv no_close_frame "$atk") ended without a close frame, $(kv failed "$atk") failed; ${budget:-input budget not shown}; server $ATTACK_JVM_FLAGS" ;;
      *) result="$(kv open_at_end "$atk") of $(kv conns "$atk") open at the end, $(kv closed_by_server "$atk") closed by the server (life p50 $(kv life_p50_s "$atk") s, max $(kv life_max_s "$atk") s, answers $(kv statuses "$atk")), $(kv connect_failed "$atk") connects failed" ;;
    esac
  fi
  logids=""
  for f in "$log" "$log.error"; do
    [ -f "$f" ] && logids="$logids $(grep -o 'LM[0-9]\{4\}' "$f" | sort | uniq -c | awk '{printf "%s x%d, ", $2, $1}' || true)"
  done
  if [ "$attack" = overload-ka ]; then
    errors=$(awk '/Socket errors/{sub(/^ */, ""); printf ", %s", $0}' "$TMP/attack-$run" | tr -d ',' | sed 's/^ */, /')
    result="wrk $(awk '/^Requests\/sec/{printf "%.0f req/s", $2}' "$TMP/attack-$run"), p99 $(awk '$1 == "99%"{print $2}' "$TMP/attack-$run")$errors; $result"
  fi
  ROWS+=("| $attack | $target | $result | $normal | $cpu | $samples | $recovery | $alive |")
  DETAILS+=("### $attack" "" "server log ids:${logids:- none}" "" '```' "$cmd" '```' "" "$(grep -v '^H1ATTACK' "$TMP/attack-$run" 2>/dev/null | head -40 || true)" "")
done

{
  echo "# Attack campaign: $(date -u "+%Y-%m-%d %H:%M") UTC, $(basename "$SERVER_JAR") from $SERVER_JAR"
  echo
  sed 's/^/    /' <<<"$MACHINE"
  echo "    DURATION=$DURATION s; normal client RATE=$RATE req/s over HTTP/1.1, TIMEOUT=$TIMEOUT s"
  echo "    load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| attack | server | result | normal p99, timeouts/failures/non-200 of sent | server CPU % | busy slots max | threads max | fds max | heap used max MB | first 200 after | alive |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${ROWS[@]}"
  echo
  printf '%s\n' "${DETAILS[@]}"
} | tee ${OUT:+"$OUT"}
