# Sourced by the scripts in server-cli/bench (run from the repository root): the jar, the JDK
# that ./loom finds, a scratch directory and the PIDs the script started, ended on exit.
JAR=$PWD/server-cli/target/loom-mpm.jar
[ -f "$JAR" ] || { echo "build the jar first: ./loom mvn -q -pl server-cli -am package -DskipTests" >&2; exit 1; }
JAVA=$(./loom java -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.home = //p')/bin/java
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
