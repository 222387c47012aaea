#!/usr/bin/env bash
# HTTP/2 side by side: h2load against loom-mpm, Helidon, Netty and Undertow (see README.md).
#
#   nice -n -15 benchmarks/h2.sh                      # 3 interleaved rounds, c16 m32 and c50 m1, 10 s each
#   SERVERS="loom netty" ROUNDS=1 DURATION=5 SHAPES=16x32 benchmarks/h2.sh
#
# Workload: GET /plaintext ("Hello, World!") over HTTP/2: h2c = cleartext by prior knowledge,
# h2 = TLS 1.3 with ALPN (a throw-away EC P-256 key made with keytool; every server uses the JDK's
# SSLEngine) (h2load -c CLIENTS -m STREAMS, one h2load thread pinned to CLIENT_CPU, the server to
# SERVER_CPU); two load shapes by default: 16 connections x 32 concurrent streams (multiplexing)
# and 50 connections x 1 stream (one request at a time per connection, as a browser-less API
# client does: per-request overhead without batching),
# a warm-up of h2load discarded first (warm_up below), then DURATION seconds measured (each h2load run is
# bounded by `timeout`: h2load -D can hang waiting for streams after its deadline); the server's CPU time
# per request is read from /proc (user + system), which stays meaningful on a noisy machine.
# Environment: SERVERS (loom helidon netty undertow), PROTOS (h2c h2), ROUNDS (3), DURATION (10), WARMUP (6:
# at least that, in WARMUP_STEP (3) s runs, until two runs agree within 10 % and the server's JIT compiler
# threads took at most JIT_SETTLE_PCT (3) % of its CPU in the last, at most WARMUP_MAX (60) s),
# SHAPES ("16x32 50x1": CLIENTSxSTREAMS), OUT (docs/benchmarks/h2-DATE.md), BUILD=1 to rebuild the jar,
# SERVER_CPU_QUOTA (% of one core for the server, as in run.sh).
# Every row also reports the requests h2load counted as failed or errored (lost responses), and
# h2load's own CPU share of its core (near 100 %: the client was the limit, the req/s a lower bound).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom helidon netty undertow"}
PROTOS=${PROTOS:-"h2c h2"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-6}
WARMUP_STEP=${WARMUP_STEP:-3}
WARMUP_MAX=${WARMUP_MAX:-60}
SHAPES=${SHAPES:-"16x32 50x1"}
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/h2-$(date -u +%Y-%m-%d).md"}
command -v h2load >/dev/null || { echo "h2load not found (apt-get install nghttp2-client)" >&2; exit 1; }

build_jar
RES=$(mktemp -d /tmp/loom-h2bench.XXXXXX)
trap 'stop_server; remove_quota_cgroup; echo "raw output kept in $RES" >&2' EXIT
"$BENCH_JAVA_HOME/bin/keytool" -genkeypair -keystore "$RES/bench.p12" -storetype PKCS12 -storepass benchpw \
  -keypass benchpw -alias bench -keyalg EC -groupname secp256r1 -dname CN=localhost \
  -ext SAN=IP:127.0.0.1,DNS:localhost -validity 2 >/dev/null 2>&1

# warm_up URL LOG: h2load in WARMUP_STEP-second runs, at least WARMUP s in all, until the last two
# runs' req/s agree within 10 % and the server's JIT compiler threads took at most JIT_SETTLE_PCT %
# of its CPU in the last (or WARMUP_MAX s have passed). A fresh JVM pinned to one core shares it
# with its JIT compiler threads: Netty's HTTP/2 app serves -m1 at ~14k req/s in its first 3 s and
# ~100k once C2 has compiled its hot path (docs/benchmarks/log/2026-11-25-1.md), so a fixed warm-up that ends too
# early measures the compiler, not the server. Agreeing rates alone were not enough: on 1 Dec 2026
# Netty's compiler still took 4.2 of its 23.2 µs per request in a measured -m1 round after them.
warm_up() {
  local url=$1 log=$2 spent=0 prev=0 rps cpu0 cpu1 jit0 jit1
  : >"$log"
  while :; do
    cpu0=$(server_cpu_ticks); jit0=$(jit_ticks_of "$SERVER_PID")
    rps=$(timeout -s INT $((WARMUP_STEP + 20)) taskset -c "$CLIENT_CPU" h2load -t1 -c "$CLIENTS" -m "$STREAMS" \
      -D "$WARMUP_STEP" "$url" 2>&1 | tee -a "$log" | sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p')
    cpu1=$(server_cpu_ticks); jit1=$(jit_ticks_of "$SERVER_PID")
    spent=$((spent + WARMUP_STEP))
    echo "# warm-up ${spent} s: ${rps:-0} req/s, JIT $((jit1 - jit0)) of $((cpu1 - cpu0)) ticks" >>"$log"
    if [ "$spent" -ge "$WARMUP" ] && awk -v a="${rps:-0}" -v b="$prev" -v j=$((jit1 - jit0)) -v c=$((cpu1 - cpu0)) \
        -v p="$JIT_SETTLE_PCT" 'BEGIN { exit !(b > 0 && a > 0 && a / b < 1.1 && b / a < 1.1 && c > 0 && 100 * j <= p * c) }'; then
      return 0
    fi
    if [ "$spent" -ge "$WARMUP_MAX" ]; then
      echo "   warm-up did not settle in $WARMUP_MAX s (see $log)" >&2
      return 0
    fi
    prev=${rps:-0}
  done
}

declare -A RPS CPU JIT LOST CLIENT
for round in $(seq "$ROUNDS"); do
  for shape in $SHAPES; do
  CLIENTS=${shape%x*}
  STREAMS=${shape#*x}
  for proto in $PROTOS; do
  for server in $SERVERS; do
    port=$(port_of "$server")
    if [ "$proto" = h2 ]; then
      export BENCH_TLS="$RES/bench.p12:benchpw"
      url="https://127.0.0.1:$port/plaintext"
    else
      unset BENCH_TLS
      url="http://127.0.0.1:$port/plaintext"
    fi
    start_server "$server" "$RES/server_${shape}_${proto}_${server}_r$round.log"
    warm_up "$url" "$RES/warmup_${shape}_${proto}_${server}_r$round.txt"
    before=$(server_cpu_ticks); jit_before=$(jit_ticks_of "$SERVER_PID"); noise0=$(noise_sample)
    f="$RES/${shape}_${proto}_${server}_r$round.txt"
    : >"$f"
    run_client "$f" timeout -s INT $((DURATION + 20)) taskset -c "$CLIENT_CPU" h2load -t1 -c "$CLIENTS" -m "$STREAMS" -D "$DURATION" "$url" || echo "   h2load exited non-zero" >&2
    after=$(server_cpu_ticks); jit_after=$(jit_ticks_of "$SERVER_PID")
    append_noise "$f" "$(noise_delta "$noise0" "$(noise_sample)")"
    stop_server
    grep -q "Application protocol: h2" "$f" || echo "   $server did not negotiate h2 ($proto)" >&2
    rps=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$f")
    done_n=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$f")
    failed=$(sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p' "$f")
    errored=$(sed -n 's/^requests: .* \([0-9]*\) errored.*/\1/p' "$f")
    ticks=$((after - before))
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "# server_cpu_s=%.2f\n", t / hz }' >>"$f"
    cpu_us=$(awk -v t="$ticks" -v n="${done_n:-0}" -v hz="$(getconf CLK_TCK)" 'BEGIN { if (n > 0) printf "%.2f", t / hz * 1e6 / n; else print "n/a" }')
    jit_us=$(awk -v t=$((jit_after - jit_before)) -v n="${done_n:-0}" -v hz="$(getconf CLK_TCK)" 'BEGIN { if (n > 0) printf "%.2f", t / hz * 1e6 / n; else print "n/a" }')
    echo "# server_jit_s=$(awk -v t=$((jit_after - jit_before)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')" >>"$f"
    client_pct=$(sed -n 's/^# client_cpu_s=\([0-9.]*\) wall_s=\([0-9.]*\).*/\1 \2/p' "$f" | awk '{ if ($2 > 0) printf "%.0f", 100 * $1 / $2; else print "n/a" }')
    RPS[$shape.$proto.$server]+="${rps:-0} "
    CLIENT[$shape.$proto.$server]+="${client_pct:-n/a} "
    CPU[$shape.$proto.$server]+="$cpu_us "
    JIT[$shape.$proto.$server]+="$jit_us "
    LOST[$shape.$proto.$server]+="$(( ${failed:-0} + ${errored:-0} )) "
    echo "round $round $shape $proto $server: ${rps:-?} req/s, ${cpu_us} µs CPU/request (JIT ${jit_us}), failed ${failed:-?}, errored ${errored:-?}, h2load ${client_pct:-?} % of its core" >&2
  done
  done
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print 0}'; }

{
  echo "# HTTP/2 side by side, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  machine_summary | sed 's/^/- /'
  echo "- h2load: $(h2load --version 2>&1 | head -1), -t1, shapes (connections x streams) $SHAPES, warm-up of at least ${WARMUP} s in ${WARMUP_STEP} s runs until two agree within 10 % and the JIT took at most ${JIT_SETTLE_PCT} % of the server's CPU in the last (at most ${WARMUP_MAX} s), ${DURATION} s measured, $ROUNDS interleaved round(s); medians"
  echo
  echo "| shape | protocol | server | req/s (median) | server CPU µs/request | of which JIT compiler threads | h2load CPU % of its core | lost responses (failed + errored, per round) | rounds (req/s) |"
  echo "|---|---|---|---:|---:|---:|---:|---|---|"
  for shape in $SHAPES; do
  for proto in $PROTOS; do
    for server in $SERVERS; do
      k="$shape.$proto.$server"
      client=$(echo "${CLIENT[$k]}" | median)
      bound=""
      awk -v c="$client" 'BEGIN { exit !(c >= 90) }' && bound=" (client saturated: a lower bound)"
      echo "| -c${shape%x*} -m${shape#*x} | $proto | $server | $(echo "${RPS[$k]}" | median)$bound | $(echo "${CPU[$k]}" | median) | $(echo "${JIT[$k]}" | median) | $client | ${LOST[$k]}| ${RPS[$k]}|"
    done
  done
  done
  if [[ " $SERVERS " == *" loom "* ]]; then
    echo
    for shape in $SHAPES; do
    for proto in $PROTOS; do
      loom=$(echo "${RPS[$shape.$proto.loom]}" | median)
      loomcpu=$(echo "${CPU[$shape.$proto.loom]}" | median)
      for server in $SERVERS; do
        [ "$server" = loom ] && continue
        other=$(echo "${RPS[$shape.$proto.$server]}" | median)
        othercpu=$(echo "${CPU[$shape.$proto.$server]}" | median)
        awk -v a="$loom" -v b="$other" -v c="$loomcpu" -v d="$othercpu" -v s="$server" -v p="$proto" -v sh="$shape" \
          'BEGIN { if (b > 0 && d > 0) printf "- %s %s: loom / %s = %.2f req/s, %.2f CPU per request\n", sh, p, s, a / b, c / d }'
      done
    done
    done
  fi
} | tee "$OUT"
echo "written to $OUT" >&2
