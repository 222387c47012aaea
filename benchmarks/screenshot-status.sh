#!/usr/bin/env bash
# Takes docs/images/server-status.png: the status page of a loaded server, rendered by headless
# Chromium (Debian's `chromium` package: apt-get install -y chromium).
#
#   benchmarks/screenshot-status.sh [OUTPUT.png]
#
# Starts org.loommpm.bench.MetricsCostServer (2 children x 64 worker slots, metrics on), loads it
# with wrk on /plaintext (keep-alive, 64 connections) plus a few slow requests under different
# virtual hosts (so "current requests" has rows), and screenshots /server-status mid-load.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:-docs/images/server-status.png}
PORT=${PORT:-18490}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "screenshot-status: needs chromium (apt-get install -y chromium)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "screenshot-status: needs wrk (apt-get install wrk)" >&2; exit 1; }

./loom mvn -q -B -DskipTests -pl benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
JAVA="$(./loom java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')/bin/java"

log=$(mktemp)
"$JAVA" -Xmx512m -cp "$CP" org.loommpm.bench.MetricsCostServer "$PORT" on 64 2 >"$log" 2>&1 &
server=$!
profile=$(mktemp -d)
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$log" "$profile"; }
trap cleanup EXIT
for _ in $(seq 1 100); do grep -q READY "$log" && break; sleep 0.1; done
grep -q READY "$log" || { cat "$log" >&2; exit 1; }

base="http://127.0.0.1:$PORT"
wrk -t1 -c64 -d12s "$base/plaintext" >/dev/null &
load=$!
slow=()
for host in www.example.com shop.example.com api.example.com static.example.net intranet.example.org; do
  curl -s -o /dev/null -H "Host: $host" "$base/slow?ms=9000" &
  slow+=($!)
done
sleep 4
# The same flags as a CI box would need: no sandbox (root), no GPU, nothing phoning home.
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --window-size=1280,1600 --screenshot="$OUT" "$base/server-status" 2>/dev/null
wait "$load" "${slow[@]}"
echo "wrote $OUT"
