#!/usr/bin/env bash
# Measures what child processes cost in memory (not a test; prints figures): the resident
# set (VmRSS, from /proc/PID/status) of
#   a. one loom-mpm.jar JVM running N in-JVM children (StartServers N), and
#   b. N loom-mpm.jar JVMs running one child each (what `ChildProcesses On` starts, less the supervisor JVM),
# each after W warm-up requests per child (curl on new connections) so classes are loaded
# and the JIT has compiled the request path. Same JVM flags for both (defaults, or JAVA_OPTS).
# Usage: server-cli/bench/children-memory.sh [N=4] [W=2000]
# Build the jar first: ./loom mvn -q -pl server-cli -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-4}
W=${2:-2000}
# shellcheck source=common.sh
. server-cli/bench/common.sh
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
start() {  # $1 = port, $2 = StartServers; prints the pid
  local dir="$WORK/$1"
  mkdir -p "$dir/htdocs"
  printf 'Hello, World!' > "$dir/htdocs/hello.txt"
  cat > "$dir/loom.conf" <<CONF
Listen 127.0.0.1:$1
DocumentRoot htdocs
StartServers $2
CustomLog /dev/null common
ErrorLog error.log
CONF
  (cd "$dir" && exec "$JAVA" ${JAVA_OPTS:-} -jar "$JAR" -f loom.conf > /dev/null 2>&1) &
  echo $!
}
wait_up() { for _ in $(seq 200); do curl -fs -o /dev/null "http://127.0.0.1:$1/hello.txt" && return; sleep 0.05; done; echo "no server on $1" >&2; exit 1; }
warm() { for _ in $(seq "$2"); do echo "url = \"http://127.0.0.1:$1/hello.txt\""; echo "output = /dev/null"; done | curl -s -K - ; }

port=$(free_port)
pid=$(start "$port" "$N"); PIDS+=("$pid")
wait_up "$port"; warm "$port" $((W * N)); sleep 1
one=$(rss_kb "$pid")
kill "$pid"; wait "$pid" 2>/dev/null || true

total=0
for i in $(seq "$N"); do
  port=$(free_port)
  pid=$(start "$port" 1); PIDS+=("$pid")
  wait_up "$port"; warm "$port" "$W"
  ports+=("$port"); pids+=("$pid")
done
sleep 1
for pid in "${pids[@]}"; do total=$((total + $(rss_kb "$pid"))); done
echo "N=$N children, $W warm-up requests per child, JAVA_OPTS='${JAVA_OPTS:-}'"
echo "a. 1 JVM x $N in-JVM children: $((one / 1024)) MiB RSS"
echo "b. $N JVMs x 1 child:          $((total / 1024)) MiB RSS in total ($((total / N / 1024)) MiB each)"
