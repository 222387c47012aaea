#!/usr/bin/env bash
# HTTP/2 denial-of-service harness (issue #23): for each attack, a fresh server pinned to
# SERVER_CPU, H2Attack's CONNS connections running it for DURATION s (reniced, on CLIENT_CPU),
# and meanwhile NormalClient (also on CLIENT_CPU, normal priority) sending RATE small GETs per
# second over h2c with a TIMEOUT each. One markdown row per attack: the normal client's
# latency and lost requests, the server's CPU, busy worker slots, waits without a slot, heap and threads, and what
# the attacker saw (server RST_STREAMs, GOAWAYs, closes). Everything on 127.0.0.1.
#
#   benchmarks/h2attack.sh                                   # every attack, 10 connections, 20 s
#   ATTACKS="none zero-window" CONNS=2 DURATION=10 benchmarks/h2attack.sh
#
# ATTACKS: words NAME or NAME:TARGET. NAME is none (normal client alone), zero-window,
# made-you-reset, wu-conn, wu-stream, rst-closed, hpack-size, rapid-reset, settings-flood,
# ping-flood, empty-data, continuation, upload (100 MB POSTs; use :bench), slow-upload (issue
# #50, 2: 100 POST streams per connection, each sent one body byte a second and never ended,
# replaced as the server ends them, by RequestReadTimeout's 408 after 20 s; use :bench, whose
# POST /plaintext reads the body; e.g. ATTACKS="slow-upload:bench" CONNS=3), big-huffman (~120 KiB
# Huffman-coded header blocks, each over the header list limit: 431; since per-address charging,
# issue #50 item 4, a reconnecting attacker no longer gets a fresh allowance per connection: its
# address is slowed, then every connection gets GOAWAY ENHANCE_YOUR_CALM at its next block, LM2900;
# so the attacker's reconnect count and the server CPU drop, and the result is not comparable
# with runs before it; set JAR_CONF="ClientChargeRate 0" for the old behaviour), slow-streams (issue #50:
# h2load keeps SLOW_CONNS connections x SLOW_STREAMS open streams on the bench app's 20 ms
# blocking /slow for DURATION s, re-opening each as it ends; use :bench. The normal client's
# streams are a newcomer's whenever its connection has nothing running, and the status sampler
# asks /server-status on a new connection every 0.5 s: "status misses" is its share of
# failures). TARGET is jar (default:
# server-cli/target/loom-mpm.jar with a generated config: a docroot with /big.bin of 10 MB and
# /small.txt, /server-status; the normal client GETs /small.txt) or bench (the bench jar's loom
# app, bound to 127.0.0.1 as every bench app is by default, whose /slow answers after 20 ms; the normal client GETs /plaintext).
# Environment: CONNS (10), SLOW_CONNS (50), SLOW_STREAMS (100), DURATION (20), RATE (50 req/s), TIMEOUT (5 s), DELAY (3 s of attack
# before the normal client measures; it measures DURATION - DELAY - 2 s), WARM (20000 h2load
# requests before each run, 0 = none), UPDATES (4000 table size updates per hpack-size block;
# 0 makes it a plain flood of GETs, 100 in flight per connection, the control), JVM_FLAGS, SERVER_CPU (0), CLIENT_CPU (1),
# ATTACK_PORT_BASE (18390: run k listens on +k; a port already in use stops the script),
# BENCH_SERVER_JAR (the :bench server; default the bench jar, which also runs the clients),
# BUILD=1 to rebuild both jars, OUT (a markdown report; default only stdout), KEEP=1 to keep
# the temp dir (server logs), JAR_CONF (extra directives for the jar target's configuration).
# Figures: latency counts from each request's scheduled send time, a timed-out or failed
# request as TIMEOUT; "client send lag" is how late the normal client got to send (CLIENT_CPU is
# shared with the attacker, reniced to 19); CPU % is of one core over the measured window.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

ATTACKS=${ATTACKS:-"none zero-window made-you-reset wu-conn wu-stream rst-closed hpack-size none:bench made-you-reset:bench"}
CONNS=${CONNS:-10}
SLOW_CONNS=${SLOW_CONNS:-50}
SLOW_STREAMS=${SLOW_STREAMS:-100}
DURATION=${DURATION:-20}
RATE=${RATE:-50}
TIMEOUT=${TIMEOUT:-5}
DELAY=${DELAY:-3}
WARM=${WARM:-20000}
UPDATES=${UPDATES:-4000}
ATTACK_PORT_BASE=${ATTACK_PORT_BASE:-18390}
OUT=${OUT:-}
SERVER_JAR=${SERVER_JAR:-"$ROOT_DIR/server-cli/target/loom-mpm.jar"}  # SERVER_JAR=other.jar: an A/B of two builds
# BENCH_SERVER_JAR=other-bench.jar: the :bench server of another build, while the attack and normal
# clients stay this build's (an older bench jar may not know the newer attacks, e.g. slow-upload).
BENCH_SERVER_JAR=${BENCH_SERVER_JAR:-"$JAR"}
MEASURE=$((DURATION - DELAY - 2))
[ "$MEASURE" -ge 3 ] || { echo "DURATION must be at least DELAY + 5" >&2; exit 1; }

build_jars "$SERVER_JAR"
set_pins

TMP=$(mktemp -d)
SERVER_PID="" SAMPLER_PID="" HEAP_PID=""
cleanup() {
  [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null
  [ -n "$HEAP_PID" ] && kill "$HEAP_PID" 2>/dev/null
  stop_server
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
mkdir -p "$TMP/docroot"
head -c $((10 * 1024 * 1024)) /dev/urandom >"$TMP/docroot/big.bin"
echo "hello from loom-mpm" >"$TMP/docroot/small.txt"

# start_target TARGET PORT LOG: starts the server pinned to SERVER_CPU, waits until its status page answers.
start_target() {
  local target=$1 port=$2 log=$3 i
  # Never load a server this script did not start: the port must be free.
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use by another process; set ATTACK_PORT_BASE" >&2
    return 1
  fi
  if [ "$target" = bench ]; then
    # shellcheck disable=SC2086
    BENCH_HOST=127.0.0.1 "${PIN_SERVER[@]}" "$JAVA" $JVM_FLAGS -jar "$BENCH_SERVER_JAR" "$port" loom >"$log" 2>&1 &
  else
    cat >"$TMP/loom-$port.conf" <<EOF
Listen 127.0.0.1:$port
DocumentRoot $TMP/docroot
<Location /server-status>
    SetHandler server-status
</Location>
LogLevel info
ErrorLog $log.error
CustomLog /dev/null common
${JAR_CONF:-}
EOF
    # shellcheck disable=SC2086
    "${PIN_SERVER[@]}" "$JAVA" $JVM_FLAGS -jar "$SERVER_JAR" -f "$TMP/loom-$port.conf" >"$log" 2>&1 &
  fi
  SERVER_PID=$!
  for i in $(seq 300); do
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "server exited during start-up:" >&2; cat "$log"* >&2; return 1; }
    curl -s -m 1 -o /dev/null "http://127.0.0.1:$port/server-status?auto" && return 0
    sleep 0.1
  done
  echo "server not answering within 30 s" >&2
  return 1
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat" 2>/dev/null || echo 0; }
HZ=$(getconf CLK_TCK)
kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }   # kv KEY LINE

MACHINE=$(machine_summary)   # now, for the load average before the runs
ROWS=()
DETAILS=()
run=0
for spec in $ATTACKS; do
  attack=${spec%%:*}
  target=jar
  [ "$spec" != "$attack" ] && target=${spec#*:}
  port=$((ATTACK_PORT_BASE + run))
  run=$((run + 1))
  log="$TMP/server-$run.log"
  if [ "$target" = bench ]; then small=/plaintext; path_arg=(--path /slow); else small=/small.txt; path_arg=(); fi
  [ "$attack" = made-you-reset ] && [ "$target" = jar ] && path_arg=(--path /small.txt)
  [ "$attack" = rapid-reset ] && [ "$target" = jar ] && path_arg=(--path /small.txt)
  # POSTs need a handler that reads the body: the bench app's /plaintext.
  case "$attack" in upload | empty-data | slow-upload) [ "$target" = bench ] && path_arg=(--path /plaintext) ;; esac
  [ "$attack" = hpack-size ] && path_arg+=(--updates "$UPDATES")
  echo "== $attack on $target (port $port)" >&2
  start_target "$target" "$port" "$log"
  if [ "$WARM" -gt 0 ]; then
    "${PIN_CLIENT[@]}" timeout 60 h2load -n "$WARM" -c 4 -m 10 "http://127.0.0.1:$port$small" >/dev/null 2>&1 || true
  fi

  # Samplers: busy/pending slots, waits without a slot (LoomSlotlessWaits) and threads every 0.5 s; heap every 2 s (jcmd GC.heap_info: with
  # ParallelGC, JDK 25's jstat shows the used columns at 0 between collections).
  (
    set +e +o pipefail # a sample that fails (the server not answering) must not end the sampler
    while :; do
      s=$(curl -s -m 2 "http://127.0.0.1:$port/server-status?auto" 2>/dev/null |
        awk -F': ' '/^BusyWorkers/{b=$2} /^LoomPendingWorkers/{p=$2} /^LoomSlotlessWaits/{w=$2}
          END{if (b != "") print b, p, w + 0; else print "x x x"}')
      t=$(awk '/^Threads/{print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0)
      echo "$s $t"   # busy pending slotless threads
      sleep 0.5
    done
  ) >"$TMP/slots-$run" 2>/dev/null &
  SAMPLER_PID=$!
  (
    set +e +o pipefail
    while :; do
      timeout 5 "$JCMD" "$SERVER_PID" GC.heap_info 2>/dev/null |
        awk '/PSYoungGen|ParOldGen|garbage-first heap|def new generation|tenured generation/ {
               for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); u += v; if ($0 ~ /Old|tenured/) o = v } }
             END { if (u != "") print u, o + 0 }'
      sleep 2
    done
  ) >"$TMP/heap-$run" 2>/dev/null &
  HEAP_PID=$!

  attack_pid=""
  if [ "$attack" = slow-streams ]; then
    "${PIN_CLIENT[@]}" nice -n 19 timeout $((DURATION + 30)) h2load -c "$SLOW_CONNS" -m "$SLOW_STREAMS" -t 1 \
      -D "$DURATION" "http://127.0.0.1:$port/slow" >"$TMP/attack-$run" 2>&1 &
    attack_pid=$!
  elif [ "$attack" != none ]; then
    "${PIN_CLIENT[@]}" nice -n 19 timeout $((DURATION + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.H2Attack \
      --port "$port" --attack "$attack" --conns "$CONNS" --duration "$DURATION" "${path_arg[@]}" >"$TMP/attack-$run" 2>&1 &
    attack_pid=$!
  fi
  "${PIN_CLIENT[@]}" timeout $((DURATION + TIMEOUT + 30)) "$JAVA" -cp "$JAR" org.loommpm.bench.attack.NormalClient \
    --url "http://127.0.0.1:$port$small" --rate "$RATE" --duration "$MEASURE" --timeout "$TIMEOUT" \
    --delay "$DELAY" >"$TMP/normal-$run" 2>&1 &
  normal_pid=$!
  # The normal client's JVM start and first request take about half a second.
  sleep "$DELAY.5"
  t0=$(date +%s.%N) c0=$(cpu_ticks)
  wait "$normal_pid" || true
  t1=$(date +%s.%N) c1=$(cpu_ticks)
  [ -n "$attack_pid" ] && { wait "$attack_pid" || true; }
  kill "$SAMPLER_PID" "$HEAP_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" "$HEAP_PID" 2>/dev/null || true
  SAMPLER_PID="" HEAP_PID=""
  alive=yes
  kill -0 "$SERVER_PID" 2>/dev/null || alive="no (exited)"
  stop_server

  normal=$(grep '^NORMAL' "$TMP/normal-$run" || echo "NORMAL failed")
  atk=$(grep '^ATTACK' "$TMP/attack-$run" 2>/dev/null || echo "")
  cpu=$(awk -v c="$((c1 - c0))" -v hz="$HZ" -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", c / hz / (b - a) * 100}')
  slots=$(awk '$1 != "x" {if ($1 > b) b = $1; if ($2 > p) p = $2; if ($3 > w) w = $3} $1 == "x" {miss++} {if ($4 > t) t = $4}
    END{printf "%d | %d | %d | %d | %d", b, p, w, miss, t}' "$TMP/slots-$run")
  # heap-N: used KB (young + old) and old-generation used KB per sample.
  heap=$(awk '{if ($1 > m) m = $1; if ($2 > o) o = $2; n++} END{printf "%.0f / %.0f (%d samples)", m / 1024, o / 1024, n}' "$TMP/heap-$run")
  if [ "$attack" = slow-streams ]; then
    attacker="h2load $SLOW_CONNS x $SLOW_STREAMS streams: $(grep -E '^requests:' "$TMP/attack-$run" | tr -s ' '), $(awk '/^finished in/{print $4, $5}' "$TMP/attack-$run" | tr -d ',')"
  elif [ -n "$atk" ]; then
    attacker="$(kv frames_per_s "$atk") frames/s, $(kv streams "$atk") streams, $(kv server_rst "$atk") RST, $(kv goaway "$atk") GOAWAY, $(kv server_closes "$atk") closes (first $(kv first_close_s "$atk") s), $(kv connections "$atk") conns"
  else
    attacker="-"
  fi
  ROWS+=("| $attack | $target | $(kv p50_ms "$normal") / $(kv p99_ms "$normal") / $(kv max_ms "$normal") | $(kv timeouts "$normal") / $(kv failures "$normal") / $(kv non200 "$normal") of $(kv sent "$normal") | $(kv send_lag_max_ms "$normal") | $cpu | $slots | $heap | $attacker |")
  logids=""
  for f in "$log" "$log.error"; do
    [ -f "$f" ] && logids="$logids $(grep -o 'LM[0-9]\{4\}' "$f" | sort | uniq -c | awk '{printf "%s x%d, ", $2, $1}' || true)"
  done
  DETAILS+=("### $attack on $target" "" "server alive at the end: $alive; server log ids:${logids:- none}" "" '```' "$(grep -v '^ATTACK' "$TMP/attack-$run" 2>/dev/null | head -20 || true)" "$(head -10 "$TMP/normal-$run")" '```' "")
done

{
  echo "# HTTP/2 attacks: $(date -u +%Y-%m-%d) $(git -C "$ROOT_DIR" rev-parse --short HEAD)"
  echo
  sed 's/^/    /' <<<"$MACHINE"
  echo "    attacks: CONNS=$CONNS DURATION=$DURATION s; normal client RATE=$RATE req/s over h2c, TIMEOUT=$TIMEOUT s, measuring $MEASURE s from $DELAY s into each attack"
  echo "    load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| attack | server | normal p50 / p99 / max ms | timeouts / failures / non-200 of sent | client send lag max ms | server CPU % | busy slots max | pending max | slotless waits max | status misses | threads max | heap used max / old max MB | attacker |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${ROWS[@]}"
  echo
  printf '%s\n' "${DETAILS[@]}"
} | tee ${OUT:+"$OUT"}
