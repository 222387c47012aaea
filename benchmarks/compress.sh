#!/usr/bin/env bash
# Compression on the fly, loom-mpm against nginx, same run (issue #19 part 3): a 100 KB JSON
# file (org.loommpm.bench.JsonSample) served as a static file that has no precompressed
# sibling, so both servers compress every response: loom-mpm.jar with `AddOutputFilterByType
# DEFLATE;BROTLI_COMPRESS application/json` and nginx with `gzip on` (and Debian's brotli filter
# module, for br). Each server pinned to SERVER_CPU (one core: nginx `worker_processes 1`, as its
# docs recommend one worker per core), wrk on CLIENT_CPU, keep-alive, interleaved rounds, medians.
# Per server and coding: req/s, server CPU per request (/proc utime+stime of the server's
# processes over the measured run), bytes on the wire per response (body + head, from curl).
#
#   ROUNDS=3 DURATION=10 nice -n -15 benchmarks/compress.sh
#
# Environment: LEVEL (gzip level, both servers; default 6, httpd's default; nginx's own default
# is 1), BR_QUALITY (both; default 5, mod_brotli's default; nginx's brotli default is 6),
# CONNS (16), ROUNDS (3), DURATION (10 s), WARMUP (5 s per server and coding).
# Installs nginx and libnginx-mod-http-brotli-filter from Debian if they are missing.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
CONNS=${CONNS:-16}
LEVEL=${LEVEL:-6}
BR_QUALITY=${BR_QUALITY:-5}
# Two ports free a moment ago (fixed ones collide with other benchmarks run on the same machine).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
LOOM_PORT=${LOOM_PORT:-$(free_port)}
NGINX_PORT=${NGINX_PORT:-$(free_port)}
LOOM_JAR="$ROOT_DIR/server-cli/target/loom-mpm.jar"
BR_MODULE=/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so

if ! command -v nginx >/dev/null || [ ! -f "$BR_MODULE" ]; then
  echo "installing nginx and its brotli filter module (Debian) ..." >&2
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light libnginx-mod-http-brotli-filter >/dev/null \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx libnginx-mod-http-brotli-filter >/dev/null
fi
command -v wrk >/dev/null || { echo "wrk is needed" >&2; exit 1; }
build_jar
if [ ! -f "$LOOM_JAR" ] || [ "${BUILD:-0}" = 1 ]; then
  (cd "$ROOT_DIR" && ./loom mvn -q -B -DskipTests -pl server-cli -am package)
fi

RES="$BENCH_DIR/results/compress-$(date +%Y%m%d-%H%M%S)"
WORK=$(mktemp -d)
mkdir -p "$RES" "$WORK/htdocs" "$WORK/nginx"
chmod 755 "$WORK" # nginx's worker runs as nobody
"$JAVA" -cp "$JAR" org.loommpm.bench.JsonSample "$WORK/htdocs/data.json"

cat >"$WORK/loom.conf" <<CONF
Listen 127.0.0.1:$LOOM_PORT
DocumentRoot $WORK/htdocs
AddOutputFilterByType DEFLATE;BROTLI_COMPRESS application/json
DeflateCompressionLevel $LEVEL
BrotliCompressionQuality $BR_QUALITY
CompressionMinimumSize 256
KeepAliveTimeout 300
MaxKeepAliveRequests 0
CustomLog /dev/null common
ErrorLog $WORK/loom-error.log
CONF

cat >"$WORK/nginx/nginx.conf" <<CONF
load_module $BR_MODULE;
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 300s;
    keepalive_requests 1000000;
    types { application/json json; }
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    gzip on;
    gzip_comp_level $LEVEL;
    gzip_types application/json;
    gzip_min_length 256;
    gzip_vary on;
    brotli on;
    brotli_comp_level $BR_QUALITY;
    brotli_types application/json;
    brotli_min_length 256;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/htdocs;
    }
}
CONF

LOOM_PID=""
NGINX_PID=""
cleanup() {
  [ -n "$LOOM_PID" ] && kill -TERM "$LOOM_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# shellcheck disable=SC2086
taskset -c "$SERVER_CPU" "$JAVA" $JVM_FLAGS -jar "$LOOM_JAR" -f "$WORK/loom.conf" >"$WORK/loom-out.log" 2>&1 &
LOOM_PID=$!
taskset -c "$SERVER_CPU" nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" >"$WORK/nginx-out.log" 2>&1 &
NGINX_PID=$!
up=0
for _ in $(seq 300); do
  if curl -sf -o /dev/null "http://127.0.0.1:$LOOM_PORT/data.json" && curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/data.json"; then
    up=1
    break
  fi
  sleep 0.2
done
if [ "$up" != 1 ]; then
  echo "a server did not start; loom:" >&2; cat "$WORK/loom-out.log" >&2; echo "nginx:" >&2; cat "$WORK/nginx-out.log" "$WORK/nginx/error.log" >&2
  exit 1
fi

# CPU ticks (utime + stime, all threads) of a process and its children.
cpu_ticks() {
  local pid total=0 p
  for p in $1 $(pgrep -P "$1" || true); do
    [ -r "/proc/$p/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}
HZ=$(getconf CLK_TCK)

port_of_srv() { case "$1" in loom) echo "$LOOM_PORT" ;; nginx) echo "$NGINX_PORT" ;; esac; }
pid_of_srv() { case "$1" in loom) echo "$LOOM_PID" ;; nginx) echo "$NGINX_PID" ;; esac; }

{
  machine_summary
  echo "nginx: $(nginx -v 2>&1 | sed 's/.*: //'), worker_processes 1; gzip_comp_level $LEVEL, brotli_comp_level $BR_QUALITY"
  echo "loom: DeflateCompressionLevel $LEVEL, BrotliCompressionQuality $BR_QUALITY"
  echo "body: $(stat -c %s "$WORK/htdocs/data.json") bytes of JSON; wrk -t1 -c$CONNS -d${DURATION}s; rounds $ROUNDS"
  for srv in loom nginx; do
    for enc in gzip br; do
      echo "$srv $enc: $(curl -s -o /dev/null -H "Accept-Encoding: $enc" -w '%{size_download} body + %{size_header} head bytes, Content-Encoding ' "http://127.0.0.1:$(port_of_srv $srv)/data.json")$(curl -s -D - -o /dev/null -H "Accept-Encoding: $enc" "http://127.0.0.1:$(port_of_srv $srv)/data.json" | tr -d '\r' | sed -n 's/^[Cc]ontent-[Ee]ncoding: //p')"
    done
  done
} | tee "$RES/meta.txt"

run_one() { # srv enc seconds -> "reqs rps ticks"
  local srv=$1 enc=$2 secs=$3 before after out
  before=$(cpu_ticks "$(pid_of_srv "$srv")")
  out=$(taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${secs}s" -H "Accept-Encoding: $enc" \
    "http://127.0.0.1:$(port_of_srv "$srv")/data.json")
  after=$(cpu_ticks "$(pid_of_srv "$srv")")
  echo "$(echo "$out" | awk '/requests in/ {print $1}') $(echo "$out" | awk '/Requests\/sec/ {print $2}') $((after - before))"
}

for srv in loom nginx; do
  for enc in gzip br; do
    run_one "$srv" "$enc" "$WARMUP" >/dev/null
  done
done

echo "round server coding requests req/s cpu_ticks" >"$RES/raw.txt"
for r in $(seq "$ROUNDS"); do
  order="loom nginx"
  [ $((r % 2)) = 0 ] && order="nginx loom"
  for srv in $order; do
    for enc in gzip br; do
      line=$(run_one "$srv" "$enc" "$DURATION")
      echo "$r $srv $enc $line" | tee -a "$RES/raw.txt"
    done
  done
done

median() { awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo
echo "| server | coding | req/s (median) | server CPU per request (µs, median) |" | tee "$RES/summary.md"
echo "|---|---|---|---|" | tee -a "$RES/summary.md"
for srv in loom nginx; do
  for enc in gzip br; do
    rps=$(awk -v s="$srv" -v e="$enc" '$2 == s && $3 == e { print $5 }' "$RES/raw.txt" | sort -g | median)
    cpu=$(awk -v s="$srv" -v e="$enc" -v hz="$HZ" '$2 == s && $3 == e { printf "%.1f\n", $6 / hz * 1e6 / $4 }' "$RES/raw.txt" \
      | sort -g | median)
    echo "| $srv | $enc | $rps | $cpu |" | tee -a "$RES/summary.md"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RES/meta.txt"
echo "results: $RES"
