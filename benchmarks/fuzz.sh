#!/usr/bin/env bash
# fuzz.sh: runs the Jazzer fuzz tests for real (JAZZER_FUZZ=1), each for a time limit, and prints
# per target the executions, coverage (libFuzzer's cov = edges, ft = features) and findings.
# Without JAZZER_FUZZ the same tests only replay their committed corpora (the ordinary build).
#
#   benchmarks/fuzz.sh [DURATION] [TARGET...]     DURATION as Jazzer takes it (30s, 10m); default 10m
#   benchmarks/fuzz.sh 10m head frames            two targets, one after the other
#   JOBS=2 benchmarks/fuzz.sh 10m                 every target, two at a time (the machine has 2 cores)
#
# Targets: head chunked chunked-roundtrip frames hpack hpack-roundtrip config proxy cookie json problem
#          form form-roundtrip multipart multipart-roundtrip
# A finding is written by Jazzer into the target's corpus directory under src/test/resources
# (crash-<sha1>), so it becomes a regression test of the ordinary build once fixed; the corpus
# Jazzer grows is kept in <module>/.cifuzz-corpus (not committed). Logs: benchmarks/results/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10m}
shift || true
JOBS=${JOBS:-1}
declare -A SPEC=(
  [head]="server-core HeadParserFuzzTest"
  [chunked]="server-core ChunkedFuzzTest#decode"
  [chunked-roundtrip]="server-core ChunkedFuzzTest#roundTrip"
  [frames]="server-h2 FrameReaderFuzzTest"
  [hpack]="server-h2 HpackFuzzTest#decode"
  [hpack-roundtrip]="server-h2 HpackFuzzTest#roundTrip"
  [config]="server-cli ConfigFuzzTest"
  [proxy]="server-core ProxyHeaderFuzzTest"
  [cookie]="server-core CookieParserFuzzTest"
  [json]="loom-mpm-jackson JacksonCodecFuzzTest"
  [problem]="loom-mpm-jackson ProblemJsonFuzzTest"
  [form]="server-core UrlEncodedFormFuzzTest#decode"
  [form-roundtrip]="server-core UrlEncodedFormFuzzTest#roundTrip"
  [multipart]="server-core MultipartFuzzTest#parse"
  [multipart-roundtrip]="server-core MultipartFuzzTest#roundTrip"
  [htpasswd]="server-auth PasswordFileFuzzTest#passwordFile"
  [basic]="server-auth PasswordFileFuzzTest#credentials"
)
# Jazzer instruments the project's own classes; a target whose work is in a library says so here
# (without it json's coverage is the codec's 50 edges, not Jackson's 4,000 and more).
declare -A INSTRUMENT=(
  [json]="com.fasterxml.jackson.**:org.loommpm.**"
  [problem]="com.fasterxml.jackson.**:org.loommpm.**"
  [htpasswd]="org.apache.commons.codec.**:org.springframework.security.crypto.**:org.loommpm.**"
)
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(head frames chunked hpack chunked-roundtrip hpack-roundtrip config proxy cookie json problem
    form form-roundtrip multipart multipart-roundtrip htpasswd basic)
OUT=benchmarks/results/fuzz
mkdir -p "$OUT"
# Compile once, so that parallel runs find everything up to date.
./loom mvn -q -B -o -pl server-cli,server-auth -am test-compile

fuzz() {  # TARGET: one JAZZER_FUZZ run; its own JVM (Jazzer fuzzes one test per JVM)
  local t=$1 module test log extra=()
  read -r module test <<<"${SPEC[$t]:?unknown target $t}"
  log="$OUT/$t.log"
  [ -z "${INSTRUMENT[$t]:-}" ] || extra=("-Djazzer.instrumentation_includes=${INSTRUMENT[$t]}")
  # -Xmx bounds the forked JVM's heap well under libFuzzer's 2 GB RSS limit.
  JAZZER_FUZZ=1 JAVA_TOOL_OPTIONS="-Xmx1g" ./loom mvn -B -o -pl "$module" -am test -Dtest="$test" \
      -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration="$DURATION" "${extra[@]}" >"$log" 2>&1 || true
  summary "$t" "$log"
}

summary() {  # TARGET LOG
  local last done finding
  last=$(grep -E '^#[0-9]+' "$2" | tail -n1 || true)
  done=$(grep -E '^Done [0-9]+ runs' "$2" | tail -n1 || true)
  finding=$(grep -m1 -E 'FuzzTestFinding|== Java Exception|Test unit written to' "$2" || true)
  printf '%-18s %s | %s | %s\n' "$1" "${done:-no Done line}" \
      "$(sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*/\1/' <<<"$last")" "${finding:-no finding}"
}

running=0
for t in "${TARGETS[@]}"; do
  fuzz "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
