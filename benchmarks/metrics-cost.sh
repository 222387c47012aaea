#!/usr/bin/env bash
# Metrics on vs off on the hello route: req/s and server CPU time per request.
#
#   benchmarks/metrics-cost.sh                      # 20 bursts per mode, 3 s each
#   BURSTS=40 BURST=2 benchmarks/metrics-cost.sh
#
# Two servers run side by side, both org.loommpm.bench.MetricsCostServer (GET /plaintext,
# ThreadsPerChild 256, one child), one with metrics off and one with a Prometheus registry, both
# pinned to the same core (SERVER_CPU); wrk (-t1 -c50, keep-alive) runs pinned to CLIENT_CPU.
# After a warm-up of each, wrk loads them in short alternating bursts (off, on, on, off, ...), so
# whatever else runs on a shared machine hits both modes alike instead of aliasing with long
# runs. Per burst: wrk's req/s, and the server's utime+stime from /proc/PID/stat before and after
# divided by the requests wrk completed (CPU time per request is far less sensitive to a noisy
# neighbour than throughput). Prints every burst, the medians per mode, and the median of the
# per-pair ratios (each on burst against the off burst next to it).
set -euo pipefail
cd "$(dirname "$0")/.."

BURSTS=${BURSTS:-20}
BURST=${BURST:-3}
WARMUP=${WARMUP:-8}
CONNECTIONS=${CONNECTIONS:-50}
PORT_OFF=${PORT_OFF:-18480}
PORT_ON=${PORT_ON:-18481}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
JVM_FLAGS=${JVM_FLAGS:--Xms1g -Xmx1g -XX:+UseParallelGC}

command -v wrk >/dev/null || { echo "metrics-cost: needs wrk (apt-get install wrk)" >&2; exit 1; }
command -v taskset >/dev/null || { echo "metrics-cost: needs taskset (util-linux)" >&2; exit 1; }

# Build in the reactor (-am) so server-core comes from this checkout, not from ~/.m2.
./loom mvn -q -B -DskipTests -pl benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
JAVA="$(./loom java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')/bin/java"
TCK=$(getconf CLK_TCK)

declare -A PID PORT
PORT[off]=$PORT_OFF
PORT[on]=$PORT_ON
logs=$(mktemp -d)
results="$logs/results"
cleanup() { for m in off on; do [ -n "${PID[$m]:-}" ] && kill "${PID[$m]}" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$logs"; }
trap cleanup EXIT

for mode in off on; do
  taskset -c "$SERVER_CPU" "$JAVA" $JVM_FLAGS -cp "$CP" org.loommpm.bench.MetricsCostServer "${PORT[$mode]}" "$mode" \
      >"$logs/$mode.log" 2>&1 &
  PID[$mode]=$!
done
for mode in off on; do
  for _ in $(seq 1 100); do grep -q READY "$logs/$mode.log" && break; sleep 0.1; done
  grep -q READY "$logs/$mode.log" || { cat "$logs/$mode.log" >&2; exit 1; }
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" "http://127.0.0.1:${PORT[$mode]}/plaintext" >/dev/null
done

cpu_ticks() {  # utime + stime of $1, in clock ticks (fields 14 and 15 of /proc/PID/stat)
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

burst() {  # $1 = off|on; prints "mode req_per_s cpu_us_per_req"
  local mode=$1 t0 t1 out reqs rps
  t0=$(cpu_ticks "${PID[$mode]}")
  out=$(taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"${BURST}s" "http://127.0.0.1:${PORT[$mode]}/plaintext")
  t1=$(cpu_ticks "${PID[$mode]}")
  if grep -q "Non-2xx\|Socket errors" <<<"$out"; then echo "metrics-cost: wrk reported errors ($mode):" >&2; echo "$out" >&2; fi
  reqs=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' <<<"$out")
  rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")
  if [ "${reqs:-0}" -eq 0 ]; then echo "$mode 0 starved"; return; fi  # the server got no CPU at all
  awk -v m="$mode" -v r="$rps" -v n="$reqs" -v d=$((t1 - t0)) -v tck="$TCK" \
      'BEGIN { printf "%s %.0f %.3f\n", m, r, d * 1e6 / tck / n }'
}

echo "burst mode req/s cpu_us/req"
for b in $(seq 1 "$BURSTS"); do
  if (( b % 2 )); then order="off on"; else order="on off"; fi
  for mode in $order; do
    line=$(burst "$mode")
    echo "$b $line" | tee -a "$results"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Starved bursts (no request completed) are left out, and so is their pair in the ratios.
col() { awk -v m="$1" -v c="$2" '$2 == m && $3 > 0 { print $(c + 1) }' "$results"; }
ratios() {  # per burst: on / off for column $1
  awk -v c="$1" '$3 > 0 { v[$1, $2] = $(c + 1) }
      END { for (b = 1; b <= '"$BURSTS"'; b++) if ((b, "off") in v && (b, "on") in v) print v[b, "on"] / v[b, "off"] }' "$results"
}
off_rps=$(col off 2 | median); on_rps=$(col on 2 | median)
off_cpu=$(col off 3 | median); on_cpu=$(col on 3 | median)
rps_ratio=$(ratios 2 | median); cpu_ratio=$(ratios 3 | median)
echo
printf 'median req/s:       off %s, on %s; median pair ratio on/off %+.1f%%\n' \
    "$off_rps" "$on_rps" "$(awk -v r="$rps_ratio" 'BEGIN { print (r - 1) * 100 }')"
printf 'median CPU us/req:  off %s, on %s; median pair ratio on/off %+.1f%%\n' \
    "$off_cpu" "$on_cpu" "$(awk -v r="$cpu_ratio" 'BEGIN { print (r - 1) * 100 }')"
