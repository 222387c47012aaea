#!/usr/bin/env bash
# The JMH microbenchmarks, briefly (see README.md): one fork, 3 x 1 s warm-up, 5 x 1 s measured,
# with the GC profiler (allocation per operation).
#
#   nice -n -15 benchmarks/jmh.sh                    # every benchmark
#   benchmarks/jmh.sh 'Http1ParseBench|ChunkedBodyBench'   # a subset (JMH regexp)
#
# Environment: JMH_ARGS (replaces the iteration options above), JMH_JVM_FLAGS (the forked JVM's
# flags: the servers' heap and GC plus AlwaysPreTouch, so first-touch page faults stay out of the
# figures), BUILD=1 to rebuild. Writes benchmarks/results/jmh-STAMP/{jmh.txt,jmh.csv}.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

JMH_JAR="$BENCH_DIR/target/benchmarks.jar"
JMH_ARGS=${JMH_ARGS:-"-f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc"}
JMH_JVM_FLAGS=${JMH_JVM_FLAGS:-"-Xms1g -Xmx1g -XX:+UseParallelGC -XX:+AlwaysPreTouch"}
RES="$BENCH_DIR/results/jmh-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$RES"
if [ ! -f "$JMH_JAR" ] || [ "${BUILD:-0}" = 1 ]; then
  (cd "$ROOT_DIR" && ./loom mvn -q -B -DskipTests -pl benchmarks -am package)
fi
{
  machine_summary
  echo "jmh: $JMH_ARGS, forked JVM: $JMH_JVM_FLAGS"
} | tee "$RES/meta.txt"
# shellcheck disable=SC2086
"$JAVA" -jar "$JMH_JAR" $JMH_ARGS -jvmArgsAppend "$JMH_JVM_FLAGS" -rf csv -rff "$RES/jmh.csv" "$@" \
  | tee "$RES/jmh.txt"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RES/meta.txt"
echo "results: $RES"
