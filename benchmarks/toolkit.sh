#!/usr/bin/env bash
# The application toolkit's cost (issue 54), side by side (see README.md, "The toolkit's cost"):
#
#   json:   TechEmpower's GET /json ({"message":"Hello, World!"}, a new object serialised by the
#           same Jackson per request) under wrk -t1 -cJSON_CONNS: req/s and server CPU µs/request.
#   upload: POST /upload, a multipart/form-data body of a FILE_BYTES (10 MB) file part and a small
#           text field, sent back to back on UPLOAD_CONNS keep-alive connections by
#           org.loommpm.bench.UploadClient, every answer's sizes and SHA-256s checked: MB/s (10^6
#           bytes of request body) and server CPU ms per MB.
#
#   ROUNDS=3 DURATION=10 nice -n -15 benchmarks/toolkit.sh
#   SERVERS="jetty netty" ROWS=upload ROUNDS=2 DURATION=5 WARMUP=5 benchmarks/toolkit.sh
#
# Each round starts every server in turn (a fresh JVM, pinned to SERVER_CPU with taskset, the same
# JVM_FLAGS; SERVER_CPU_QUOTA as in run.sh), runs the rows on it, stops it; the load tools run on
# CLIENT_CPU. Rounds interleave the servers, in reverse order every other round. A row first
# probes its endpoint with curl: a server whose endpoint answers 404 (Helidon's /upload: its
# multipart module is not published) is skipped with
# the reason in the report; any other answer than the expected one is an error that skips it too.
# Warm-up: WARMUP s of the row's own load, then JIT_SETTLE_STEP s steps while the server's JIT
# compiler threads took over JIT_SETTLE_PCT % of its CPU (up to JIT_SETTLE_MAX s), as run.sh.
#
# loom streams each part through its digest (MultipartReader.next(), nothing spooled); loom-stored
# (LOOM_UPLOAD=stored) stores every part first (readAll(): in memory up to 16 KiB, then spooled),
# as the peers' APIs make them do, and hashes it afterwards; its GET /json is loom's, not run twice.
#
# Environment: SERVERS (loom loom-stored helidon jetty netty undertow), ROWS (json upload), ROUNDS (3), DURATION (10 s
# measured per row), WARMUP (5 s), JSON_CONNS (50), UPLOAD_CONNS (4), FILE_BYTES (10000000),
# UPLOAD_TMP (the directory under which each server process gets a fresh spool directory,
# BENCH_UPLOAD_DIR: /dev/shm when writable, so the row measures the servers and not the disk; else
# TMPDIR or /tmp), CLIENT_JVM_FLAGS, JIT_SETTLE_*, SERVER_CPU/CLIENT_CPU, PORT_BASE, JVM_FLAGS,
# SERVER_CPU_QUOTA, BUILD=1 (rebuild the jar), OUT (docs/benchmarks/toolkit-DATE.md);
# REPORT_FROM=benchmarks/results/toolkit-STAMP writes that run's report again, running nothing.
# The report warns when other processes took over 10 % of the server's core in a measured run.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

SERVERS=${SERVERS:-"loom loom-stored helidon jetty netty undertow"}
ROWS=${ROWS:-"json upload"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
JSON_CONNS=${JSON_CONNS:-50}
export JSON_CONNS
UPLOAD_CONNS=${UPLOAD_CONNS:-4}
FILE_BYTES=${FILE_BYTES:-10000000}
CLIENT_JVM_FLAGS=${CLIENT_JVM_FLAGS:-"-Xms256m -Xmx256m -XX:+UseParallelGC"}
if [ -z "${UPLOAD_TMP:-}" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then UPLOAD_TMP=/dev/shm; else UPLOAD_TMP=${TMPDIR:-/tmp}; fi
fi
if [ -n "${REPORT_FROM:-}" ]; then
  # Only the report, again, from a run's raw directory (its parameters come from there).
  RES=$(cd "$REPORT_FROM" && pwd)
  # shellcheck source=/dev/null
  . "$RES/params.sh"
else
  DATE=$(date +%F)
  STAMP=$(date +%Y%m%d-%H%M%S)
  RES="$BENCH_DIR/results/toolkit-$STAMP"
fi
OUT=${OUT:-"$ROOT_DIR/docs/benchmarks/toolkit-$DATE.md"}
RAW="$RES/raw.txt"
has_row() { [[ " $ROWS " == *" $1 "* ]]; }

# The report: medians over the rounds, min-max, ratios to loom when loom ran.
report() {
  echo "# The toolkit's cost: JSON and multipart upload, side by side ($DATE)"
  echo
  echo "Written by \`benchmarks/toolkit.sh\` (issue 54, \"How it must be checked\"); each peer's"
  echo "configuration and the documentation it follows: benchmarks/README.md, \"The toolkit's cost\"."
  echo "Raw outputs: \`benchmarks/results/toolkit-$STAMP/\` (not committed)."
  echo
  echo '```'
  cat "$RES/meta.txt"
  echo '```'
  local busy
  busy=$(awk '$1 != "skip" {for (i = 4; i <= NF; i++) if ($i ~ /^others_core_pct=/) {split($i, a, "="); if (a[2] + 0 > m) m = a[2] + 0; if (n == "" || a[2] + 0 < n) n = a[2] + 0}}
    END {if (m > 10) printf "%d–%d", n, m}' "$RAW")
  if [ -n "$busy" ]; then
    echo
    echo "**Other processes shared the servers' core in this run** (they took $busy % of core $SERVER_CPU during the"
    echo "measured runs, column \"server / others\"): req/s and MB/s measured the machine as much as the servers, and"
    echo "the CPU figures, the server's own time, are inflated by the contention (cold caches, preemption). Not for"
    echo "comparisons beyond this run; a quiet machine (or \`SERVER_CPU_QUOTA\` with nothing else on the core) gives figures."
  fi
  for row in $ROWS; do
    echo
    if [ "$row" = json ]; then
      echo "## GET /json (TechEmpower's JSON test, wrk -t1 -c$JSON_CONNS)"
      echo
      echo "| server | req/s (median) | min–max | server CPU µs/req (median) | min–max | JIT µs/req | p99 ms | wrk CPU % | core $SERVER_CPU: server / others % | errors | vs loom (req/s, CPU) | rounds |"
      echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    else
      echo "## POST /upload (a $FILE_BYTES-byte file part + a text field, $UPLOAD_CONNS connections)"
      echo
      echo "| server | MB/s (median) | min–max | server CPU ms/MB (median) | min–max | JIT ms/MB | p99 ms per upload | client CPU % | core $SERVER_CPU: server / others % | errors / bad answers | files left | vs loom (MB/s, CPU) | rounds |"
      echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    fi
    awk -v row="$row" -v servers="$SERVERS" '
      function med(s,   v, k, i, j, t) {
        k = split(s, v, " "); if (k == 0) return ""
        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
        return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
      }
      function lo(s,   v, k, i, m) { k = split(s, v, " "); m = v[1]; for (i = 2; i <= k; i++) if (v[i] + 0 < m + 0) m = v[i]; return m }
      function hi(s,   v, k, i, m) { k = split(s, v, " "); m = v[1]; for (i = 2; i <= k; i++) if (v[i] + 0 > m + 0) m = v[i]; return m }
      function kv(name,   i, a) { for (i = 4; i <= NF; i++) { split($i, a, "="); if (a[1] == name) return a[2] } return "" }
      $1 == row {
        s = $3; n[s]++
        sc[s] = sc[s] " " kv("server_core_pct"); oc[s] = oc[s] " " kv("others_core_pct")
        if (row == "json") {
          x[s] = x[s] " " kv("rps"); c[s] = c[s] " " kv("cpu_us_per_req"); j[s] = j[s] " " kv("jit_us_per_req")
          p[s] = p[s] " " kv("p99_ms"); cl[s] = cl[s] " " kv("client_cpu_pct"); e[s] += kv("socket_errors") + kv("non2xx")
        } else {
          x[s] = x[s] " " kv("mb_per_s"); c[s] = c[s] " " kv("server_cpu_ms_per_mb"); j[s] = j[s] " " kv("server_jit_ms_per_mb")
          p[s] = p[s] " " kv("p99_ms"); cl[s] = cl[s] " " kv("client_cpu_pct"); e[s] += kv("errors") + kv("timeouts")
          b[s] += kv("bad_answers"); l[s] += kv("left_files")
        }
      }
      END {
        k = split(servers, order, " ")
        bx = ("loom" in n) ? med(x["loom"]) : ""; bc = ("loom" in n) ? med(c["loom"]) : ""
        for (i = 1; i <= k; i++) {
          s = order[i]; if (!(s in n)) continue
          mx = med(x[s]); mc = med(c[s])
          vs = (bx != "" && bx > 0 && bc > 0) ? sprintf("%.2f, %.2f", mx / bx, mc / bc) : "–"
          if (row == "json")
            printf "| %s | %.0f | %.0f–%.0f | %.2f | %.2f–%.2f | %.2f | %.2f | %.0f | %.0f / %.0f | %d | %s | %d |\n", s, mx, lo(x[s]), hi(x[s]), mc, lo(c[s]), hi(c[s]), med(j[s]), med(p[s]), med(cl[s]), med(sc[s]), med(oc[s]), e[s], vs, n[s]
          else
            printf "| %s | %.1f | %.1f–%.1f | %.3f | %.3f–%.3f | %.3f | %.0f | %.0f | %.0f / %.0f | %d / %d | %d | %s | %d |\n", s, mx, lo(x[s]), hi(x[s]), mc, lo(c[s]), hi(c[s]), med(j[s]), med(p[s]), med(cl[s]), med(sc[s]), med(oc[s]), e[s], b[s], l[s], vs, n[s]
        }
      }' "$RAW"
    if grep -q "^skip $row " "$RAW"; then
      echo
      echo "Not in this row:"
      echo
      grep "^skip $row " "$RAW" | awk '{s = $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); if (!(s in seen)) { seen[s] = 1; printf "- **%s**: %s\n", s, $0 } }'
    fi
  done
  if has_row json; then
    echo
    echo "## What each server sends for GET /json"
    echo
    echo "As each sends it by default (\`curl -si\`, round 1); the bytes differ, the harness leaves them as they are."
    echo
    for s in $SERVERS; do
      local h="$RES/probe/json_${s}_r1.head"
      [ -f "$h" ] && [ -s "$RES/probe/json_${s}_r1.body" ] || continue
      grep -q ' 200' "$h" || continue
      echo "- **$s** ($(( $(wc -c <"$h") + $(wc -c <"$RES/probe/json_${s}_r1.body") )) bytes): \`$(tr -d '\r' <"$h" | sed '/^$/d' | paste -sd'|' | sed 's/|/ · /g')\`"
    done
  fi
  echo
  echo "## Runs"
  echo
  echo "Every measured run (server CPU from /proc/PID/stat; \`server_core_pct\`/\`others_core_pct\`: the share of core"
  echo "$SERVER_CPU the server had and the share other processes took over the run, from /proc/stat; \`steal_*\`: the"
  echo "hypervisor's steal on each core; a row whose load tool used ≥ 90 % of its core measured the client too:"
  echo "its rate is a lower bound)."
  echo
  echo '```'
  cat "$RAW"
  echo '```'
}
if [ -n "${REPORT_FROM:-}" ]; then
  report >"$OUT"
  echo "results: $OUT (raw: $RES)"
  exit 0
fi

mkdir -p "$RES/logs" "$RES/runs" "$RES/probe"
: >"$RAW"
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl not found" >&2; exit 1; }
for row in $ROWS; do
  case "$row" in json | upload) ;; *) echo "unknown row $row (json, upload)" >&2; exit 2 ;; esac
done
ulimit -n 65536 2>/dev/null || true

build_jar
SPOOL=""
cleanup() {
  stop_server
  remove_quota_cgroup
  [ -z "$SPOOL" ] || rm -rf "$SPOOL"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


# A small file for the upload probe, and its digest.
PROBE_FILE="$RES/probe/probe.txt"
printf 'probe %s\n' "$STAMP" >"$PROBE_FILE"
PROBE_SHA=$(sha256sum "$PROBE_FILE" | cut -d' ' -f1)

# known_absence ROW SERVER: why a peer has no endpoint for a row, when that is known.
known_absence() {
  case "$1:$2" in
    upload:helidon) echo "Helidon 4's multipart support (io.helidon.http.media:helidon-http-media-multipart) is not served by the registry at any version tried (4.1.7, 4.2.7, 4.3.0-4.5.0), so HelidonBench has no POST /upload" ;;
    *) echo "the endpoint is not there" ;;
  esac
}

# probe ROW SERVER PORT ROUND: 0 when the row can run; else records the skip and returns 1.
probe() {
  local row=$1 server=$2 port=$3 round=$4 f="$RES/probe/${1}_${2}_r$4" code
  if [ "$row:$server" = json:loom-stored ]; then
    echo "skip $row $round $server: the same GET /json as loom (LOOM_UPLOAD changes /upload only)" | tee -a "$RAW" | sed 's/^/   /'
    return 1
  fi
  if [ "$row" = json ]; then
    code=$(curl -s -m 10 -D "$f.head" -o "$f.body" -w '%{http_code}' "http://127.0.0.1:$port/json" || echo 000)
  else
    code=$(curl -s -m 30 -D "$f.head" -o "$f.body" -w '%{http_code}' -F "note=probe" -F "file=@$PROBE_FILE" \
      "http://127.0.0.1:$port/upload" || echo 000)
  fi
  if [ "$code" = 404 ]; then
    echo "skip $row $round $server 404: $(known_absence "$row" "$server")" | tee -a "$RAW" | sed 's/^/   /'
    return 1
  fi
  if [ "$code" != 200 ]; then
    echo "skip $row $round $server error: the probe got status $code (see $f.head)" | tee -a "$RAW" | sed 's/^/   /'
    return 1
  fi
  if [ "$row" = json ]; then
    if [ "$(tr -d ' \t\r\n' <"$f.body")" != '{"message":"Hello,World!"}' ] \
      || ! grep -qi '^content-type: *application/json' "$f.head"; then
      echo "skip $row $round $server error: GET /json answered $(head -c 200 "$f.body") ($(grep -i '^content-type' "$f.head" | tr -d '\r'))" \
        | tee -a "$RAW" | sed 's/^/   /'
      return 1
    fi
  elif ! grep -q "$PROBE_SHA" "$f.body"; then
    echo "skip $row $round $server error: POST /upload did not report the probe's sha256 ($(head -c 300 "$f.body"))" \
      | tee -a "$RAW" | sed 's/^/   /'
    return 1
  fi
  return 0
}

# wrk_summary FILE: req/s, requests, p99 (ms), socket errors, non-2xx of a wrk --latency output.
wrk_summary() {
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^Requests\/sec:/ {rps = $2}
    / requests in / {reqs = $1}
    $1 == "99%" {p99 = ms($2)}
    /Socket errors:/ {gsub(/,/, ""); errs = $4 + $6 + $8 + $10}
    /Non-2xx or 3xx responses:/ {non2xx = $5}
    END {printf "rps=%s requests=%s p99_ms=%.2f socket_errors=%d non2xx=%d", rps, reqs, p99, errs, non2xx}' "$1"
}

# core_ticks: "busy total" clock ticks of SERVER_CPU from /proc/stat (busy: user, nice, system,
# irq, softirq; total: those with idle, iowait and steal).
core_ticks() {
  awk -v c="cpu$SERVER_CPU" '$1 == c {print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
}

# core_shares BEFORE AFTER SERVER_TICKS: "server_core_pct=S others_core_pct=O": the share of
# SERVER_CPU the server had over a run and what other processes took (a shared machine's
# neighbours: a low rate with a high second figure measured them, not the server).
core_shares() {
  awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN {split(a, x, " "); split(b, y, " "); t = y[2] - x[2]
    if (t <= 0) { print "server_core_pct=-1 others_core_pct=-1"; exit }
    o = y[1] - x[1] - s; if (o < 0) o = 0
    printf "server_core_pct=%.0f others_core_pct=%.0f", 100 * s / t, 100 * o / t}'
}

# per_req TICKS REQUESTS: µs of CPU per request (a tick is 10 ms), -1 without requests.
per_req() {
  awk -v c="$1" -v r="${2:-0}" 'BEGIN {printf "%.2f", (r > 0 ? c * 10000 / r : -1)}'
}

# run_json SERVER ROUND PORT: warm-up and JIT settling, then DURATION s of wrk on /json.
run_json() {
  local server=$1 round=$2 port=$3 f cpu0 cpu1 jit0 jit1 settled noise0 noise sum reqs core0 shares
  f="$RES/runs/json_${server}_r$round.txt"
  settled=$(warm_wrk j "$WARMUP" "$port" "$RES/runs/json_${server}_r$round.warmup.txt")
  wrk_args j "$DURATION" "$port"
  printf '# wrk' >"$f"; printf " '%s'" "${WRK_ARGS[@]}" >>"$f"; echo >>"$f"
  cpu0=$(server_cpu_ticks); jit0=$(jit_ticks_of "$SERVER_PID"); noise0=$(noise_sample); core0=$(core_ticks)
  run_client "$f" taskset -c "$CLIENT_CPU" wrk "${WRK_ARGS[@]}" || echo "   wrk exited non-zero" >&2
  cpu1=$(server_cpu_ticks); jit1=$(jit_ticks_of "$SERVER_PID"); noise=$(noise_delta "$noise0" "$(noise_sample)")
  shares=$(core_shares "$core0" "$(core_ticks)" $((cpu1 - cpu0)))
  echo "$noise" >>"$f"
  sum=$(wrk_summary "$f")
  reqs=$(echo "$sum" | sed -n 's/.*requests=\([0-9]*\).*/\1/p')
  local client
  client=$(awk '/^# client_cpu_s=/ {split($2, a, "="); split($3, b, "="); if (b[2] > 0) printf "%.0f", 100 * a[2] / b[2]}' "$f")
  echo "json $round $server $sum cpu_us_per_req=$(per_req $((cpu1 - cpu0)) "$reqs") jit_us_per_req=$(per_req $((jit1 - jit0)) "$reqs") client_cpu_pct=${client:-0} settle_s=$settled $shares $(echo "$noise" | sed 's/^# noise: //')" \
    | tee -a "$RAW" | sed 's/^/   /'
}

# run_upload SERVER ROUND PORT: UploadClient (its own warm-up and JIT settling), then the spool
# directory is checked for files the server left behind.
run_upload() {
  local server=$1 round=$2 port=$3 f noise0 noise result left
  f="$RES/runs/upload_${server}_r$round.txt"
  local core_arg=""
  [[ "$SERVER_CPU" =~ ^[0-9]+$ ]] && core_arg="--server-core $SERVER_CPU"
  noise0=$(noise_sample)
  # shellcheck disable=SC2086
  taskset -c "$CLIENT_CPU" "$JAVA" $CLIENT_JVM_FLAGS -cp "$JAR" org.loommpm.bench.UploadClient \
    --port "$port" --server-pid "$SERVER_PID" --conns "$UPLOAD_CONNS" --file-bytes "$FILE_BYTES" \
    --warmup "$WARMUP" --seconds "$DURATION" --settle-pct "$JIT_SETTLE_PCT" --settle-step "$JIT_SETTLE_STEP" \
    --settle-max "$JIT_SETTLE_MAX" $core_arg >"$f" 2>&1 || echo "   UploadClient exited non-zero (see $f)" >&2
  noise=$(noise_delta "$noise0" "$(noise_sample)")
  echo "$noise" >>"$f"
  sleep 0.5 # the last answers' clean-up, in servers that delete after writing the answer
  left=$(find "$SPOOL" -type f 2>/dev/null | wc -l)
  result=$(sed -n 's/^RESULT //p' "$f")
  [ -n "$result" ] || result="uploads=0 error=no_result"
  echo "upload $round $server $result left_files=$left $(echo "$noise" | sed 's/^# noise: //')" | tee -a "$RAW" | sed 's/^/   /'
}

{
  echo "date: $DATE"
  echo "servers: $SERVERS; rows: $ROWS; rounds: $ROUNDS (servers interleaved, reversed every other round; a fresh JVM per server per round)"
  echo "per row: ${WARMUP} s warm-up of the row's load, then ${JIT_SETTLE_STEP} s steps while the JIT took over ${JIT_SETTLE_PCT} % of the server's CPU (up to ${JIT_SETTLE_MAX} s), then ${DURATION} s measured"
  has_row json && echo "json: $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), -t1 -c$JSON_CONNS, keep-alive, GET /json"
  has_row upload && echo "upload: org.loommpm.bench.UploadClient ($CLIENT_JVM_FLAGS), $UPLOAD_CONNS keep-alive connections, closed loop, a $FILE_BYTES-byte file part + a 33-byte text field; spool directories under $UPLOAD_TMP ($(stat -f -c %T "$UPLOAD_TMP" 2>/dev/null || echo '?'))"
  echo "jackson: $(sed -n 's:.*<jackson.version>\(.*\)</jackson.version>.*:\1:p' "$ROOT_DIR/pom.xml"); jetty $(sed -n 's:.*<jetty.version>\(.*\)</jetty.version>.*:\1:p' "$ROOT_DIR/pom.xml"); netty $(sed -n 's:.*<netty.version>\(.*\)</netty.version>.*:\1:p' "$ROOT_DIR/pom.xml"); helidon $(sed -n 's:.*<helidon.version>\(.*\)</helidon.version>.*:\1:p' "$ROOT_DIR/pom.xml")"
  machine_summary
} >"$RES/meta.txt"
cat "$RES/meta.txt"
# What REPORT_FROM needs to write this run's report again.
printf 'SERVERS=%q\nROWS=%q\nJSON_CONNS=%q\nUPLOAD_CONNS=%q\nFILE_BYTES=%q\nSERVER_CPU=%q\nDATE=%q\nSTAMP=%q\n' \
  "$SERVERS" "$ROWS" "$JSON_CONNS" "$UPLOAD_CONNS" "$FILE_BYTES" "$SERVER_CPU" "$DATE" "$STAMP" >"$RES/params.sh"

for round in $(seq "$ROUNDS"); do
  order=$SERVERS
  if [ $((round % 2)) = 0 ]; then order=$(echo "$SERVERS" | tr ' ' '\n' | tac | tr '\n' ' '); fi
  for server in $order; do
    port=$(port_of "$server")
    echo "== round $round/$ROUNDS: $server (port $port, load $(cut -d' ' -f1-3 /proc/loadavg))"
    SPOOL=$(mktemp -d "$UPLOAD_TMP/loom-bench-upload-$server-XXXXXX")
    export BENCH_UPLOAD_DIR=$SPOOL
    if ! start_server "$server" "$RES/logs/${server}_r$round.log"; then
      echo "skip all $round $server error: failed to start (see logs/${server}_r$round.log)" | tee -a "$RAW"
      rm -rf "$SPOOL"; SPOOL=""
      continue
    fi
    for row in $ROWS; do
      if probe "$row" "$server" "$port" "$round"; then
        "run_$row" "$server" "$round" "$port"
      fi
      if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "   $server died during row $row" | tee -a "$RAW" >&2
        break
      fi
    done
    stop_server
    left=$(find "$SPOOL" -type f 2>/dev/null | wc -l)
    [ "$left" = 0 ] || echo "   $server left $left file(s) in its spool directory after it stopped" | tee -a "$RAW"
    rm -rf "$SPOOL"; SPOOL=""
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RES/meta.txt"

report >"$OUT"
echo "results: $OUT (raw: $RES)"
