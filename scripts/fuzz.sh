#!/usr/bin/env bash
# Fuzzes a real node's three ports with seeded inputs: the HTTP API (v1, v2) and the Nacos 2.x
# client port (node/src/test/java/dev/nacre/node/ApiFuzzTest.java), and the peer port with a
# member's certificate (PeerFuzzTest). No input may get a server error, an unhandled error or no
# answer, and the node must keep serving.
#   scripts/fuzz.sh --minutes N [--seed S] [-o]   N minutes in all, a third per port (at most 110)
# The README's test run fuzzes each port for a bounded share (1500 inputs or 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=5; seed=""; maven_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -o|--offline) maven_args+=(-o); shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case $minutes in (''|*[!0-9]*) echo "--minutes takes a whole number, got '$minutes'" >&2; exit 2 ;; esac
if [ "$minutes" -lt 1 ] || [ "$minutes" -gt 110 ]; then
  echo "--minutes must be 1 to 110, got $minutes" >&2; exit 2
fi
args=(-B -pl node -am verify '-Dtest=ApiFuzzTest,PeerFuzzTest' -Dsurefire.failIfNoSpecifiedTests=false
  "-Dnacre.fuzz.seconds=$((minutes * 20))" -Dnacre.fuzz.inputs=2000000000)
if [ -n "$seed" ]; then
  args+=("-Dnacre.fuzz.seed=$seed")
fi
log=node/target/fuzz.log
mkdir -p node/target
echo "fuzzing for $minutes minutes (Maven log: $log)"
status=0
mvn "${args[@]}" ${maven_args[@]+"${maven_args[@]}"} > "$log" 2>&1 || status=$?
grep -a -h "^FUZZ" node/target/surefire-reports/dev.nacre.node.*FuzzTest-output.txt 2>/dev/null || true
if [ $status -ne 0 ]; then
  echo "fuzzing found failures or could not run: see $log and node/target/surefire-reports/" >&2
fi
exit $status
