#!/usr/bin/env bash
# aot-cache.sh: makes a start-up cache for loom-mpm.jar from a training run, and prints the
# option that starts the server with it (opt-in; docs/operations.md, "Start-up time").
#
#   server-cli/bin/aot-cache.sh CACHE JAR [SERVER ARGS...]
#   server-cli/bin/aot-cache.sh /var/cache/loom/loom-mpm.aot loom-mpm.jar -f /etc/loom/loom-mpm.conf
#
# The training run is the server itself, started with the given arguments: once it prints
# "listening on URL", TRAIN_REQUESTS (200) GETs of TRAIN_PATH (/) go to that URL with curl (one
# connection, then one h2c request where the listener is cleartext), then SIGTERM; the JVM
# writes the cache as it exits. JDK 25+: an AOT cache (JEP 483/514/515, -XX:AOTCacheOutput; start
# with -XX:AOTCache=CACHE). JDK 21-24: a dynamic AppCDS archive (-XX:ArchiveClassesAtExit; start
# with -XX:SharedArchiveFile=CACHE). The cache belongs to that JDK and that jar: rebuild it after
# upgrading either (a stale one is ignored with a warning, never a failed start).
# Environment: JAVA (the java launcher: $JAVA_HOME/bin/java, else java on PATH), JAVA_OPTS (JVM
# options for the training run, e.g. the heap and GC flags the server runs with: some must match
# at start), TRAIN_REQUESTS, TRAIN_PATH, TIMEOUT (60 s to "listening").
# Exit status 0 and the start option on stdout; 1 if the server did not start or no cache appeared.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,4p' "$0" | sed 's/^# //' >&2
  exit 2
fi
CACHE=$1 JARFILE=$2
shift 2
JAVA=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}
JAVA=${JAVA:-java}
TRAIN_REQUESTS=${TRAIN_REQUESTS:-200}
TRAIN_PATH=${TRAIN_PATH:-/}
TIMEOUT=${TIMEOUT:-60}
command -v curl >/dev/null || { echo "aot-cache: curl is needed for the training requests" >&2; exit 1; }

major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
[ -n "$major" ] || { echo "aot-cache: cannot run $JAVA" >&2; exit 1; }
if [ "$major" -ge 25 ]; then
  record=(-XX:AOTCacheOutput="$CACHE") use="-XX:AOTCache=$CACHE"
elif [ "$major" -ge 21 ]; then
  record=(-XX:ArchiveClassesAtExit="$CACHE") use="-XX:SharedArchiveFile=$CACHE"
else
  echo "aot-cache: JDK $major is older than 21" >&2; exit 1
fi

work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
rm -f "$CACHE"
mkdir -p "$(dirname "$CACHE")"
# shellcheck disable=SC2086
"$JAVA" ${JAVA_OPTS:-} "${record[@]}" -jar "$JARFILE" "$@" >"$work/out" 2>"$work/err" &
pid=$!

url=""
for _ in $(seq $((TIMEOUT * 10))); do
  url=$(sed -n 's/.* listening on \([a-z]*:\/\/[^ ,]*\/\).*/\1/p' "$work/out" | head -1)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "aot-cache: the server did not start; its output:" >&2
  cat "$work/out" "$work/err" >&2
  exit 1
fi
# A wildcard listener (0.0.0.0 or [::]) is trained through the loopback address.
url=$(printf '%s' "$url" | sed 's#//0\.0\.0\.0:#//127.0.0.1:#; s#//\[::\]:#//[::1]:#')
target="${url%/}$TRAIN_PATH"
args=()
for _ in $(seq "$TRAIN_REQUESTS"); do args+=(-o /dev/null "$target"); done
curl -ks "${args[@]}" || echo "aot-cache: training requests to $target failed (the cache is made anyway)" >&2
case "$url" in
  http://*) curl -s -o /dev/null --http2-prior-knowledge "$target" 2>/dev/null || true ;;
esac

kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
if [ ! -s "$CACHE" ]; then
  echo "aot-cache: no cache written (server exit status $status); its output:" >&2
  cat "$work/out" "$work/err" >&2
  exit 1
fi
echo "aot-cache: $CACHE ($(du -h "$CACHE" | cut -f1), trained on $TRAIN_REQUESTS requests to $target, JDK $major)" >&2
echo "aot-cache: start with: $JAVA ${JAVA_OPTS:+$JAVA_OPTS }$use -jar $JARFILE${*:+$(printf ' %q' "$@")}" >&2
echo "$use"
