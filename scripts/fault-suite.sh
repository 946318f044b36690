#!/usr/bin/env bash
# Runs the fault-injection scenarios (cluster-tests, classes *ScenarioTest, JUnit tag "scenario")
# on in-JVM clusters and prints one verdict line per scenario, then "N passed, M failed".
#
#   scripts/fault-suite.sh [--quick | --full | --only TESTS] [--seed S] [--nodes 3|5] [-o] [-D...]
#
#   --quick    the scenarios tagged "quick" (the default; part of scripts/test.sh)
#   --full     every scenario with seed S, then the scenarios tagged "seeded" (randomized ones)
#              again with seeds S+1 and S+2
#   --only T   the scenarios matching the surefire filter T, e.g. 'CpPartitionScenarioTest#minority*'
#   --seed S   the seed of the clients' operation choices, the scenarios' random choices and the
#              link faults (default: random, printed); a failing line's seed replays it
#   --nodes N  cluster size for the scenarios that allow it (default 3; some need a fixed size)
#   -o, -D...  passed to Maven (-o: offline)
#
# docs/FAULTS.md describes every scenario. Results: cluster-tests/target/fault-suite/
# (verdicts.log, started.log, <scenario>-<seed>.txt for each failure, maven-*.log).
# Exits 1 when a scenario failed or produced no verdict, or when Maven failed.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=quick; seed=""; nodes=""; maven_args=(); only="*ScenarioTest"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) mode=quick; shift ;;
    --full) mode=full; shift ;;
    --only) mode=only; only=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    -o|-D*|--offline) maven_args+=("$1"); shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$seed" ]; then
  seed=$(( (RANDOM << 15 | RANDOM) ))
fi
case $seed in (*[!0-9-]*|'') echo "--seed takes an integer, got '$seed'" >&2; exit 2 ;; esac
if [ -n "$nodes" ]; then
  case $nodes in (3|5|7) ;; (*) echo "--nodes takes 3, 5 or 7, got '$nodes'" >&2; exit 2 ;; esac
fi

results=cluster-tests/target/fault-suite
rm -rf "$results"
mkdir -p "$results"
echo "fault suite: --$mode seed=$seed nodes=${nodes:-3 (default)}; results in $results"

maven_failed=0
# run GROUPS SEED: one Maven run of the scenario classes in those JUnit groups.
run() {
  local groups=$1 s=$2 log="$results/maven-$1-$2.log"
  local args=(-B -pl cluster-tests -am verify
    "-Dtest=$only" -Dsurefire.failIfNoSpecifiedTests=false
    -Dscenario.excluded= "-Dgroups=$groups"
    "-Dnacre.suite.seed=$s" "-Dnacre.faults.seed=$s" "-Dnacre.suite.results=$PWD/$results")
  if [ -n "$nodes" ]; then
    args+=("-Dnacre.suite.nodes=$nodes")
  fi
  echo "running scenarios tagged $groups with seed $s (Maven log: $log)"
  if ! mvn "${args[@]}" ${maven_args[@]+"${maven_args[@]}"} >"$log" 2>&1; then
    maven_failed=1
    if ! grep -q "Tests run:" "$log"; then
      echo "Maven failed before running the scenarios; the end of $log:" >&2
      tail -30 "$log" >&2
    fi
  fi
}

start=$(date +%s)
if [ "$mode" = quick ]; then
  run quick "$seed"
elif [ "$mode" = only ]; then
  run scenario "$seed"
else
  run scenario "$seed"
  run seeded $((seed + 1))
  run seeded $((seed + 2))
fi

verdicts="$results/verdicts.log"
started="$results/started.log"
touch "$verdicts" "$started"
echo
cat "$verdicts"
passed=$(grep -c '^SCENARIO .* PASS ops=' "$verdicts" || true)
not_passed=$(grep -vc '^SCENARIO .* PASS ops=' "$verdicts" || true)
# A scenario that started but wrote no verdict (the JVM died, a timeout killed it) counts as failed.
missing=$(awk 'FILENAME == ARGV[1] { if ($1 == "SCENARIO") seen[$2 " " $3 " " $4]++; next }
               $1 == "START" { key = $2 " " $3 " " $4; if (seen[key] > 0) seen[key]--; else print key }' \
          "$verdicts" "$started")
if [ -n "$missing" ]; then
  while read -r m; do echo "SCENARIO $m FAIL no verdict (see the Maven log)"; done <<<"$missing"
fi
missing_count=$(printf '%s' "$missing" | grep -c . || true)
failed=$((not_passed + missing_count))
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
  echo "no scenario ran" >&2
  failed=1
fi
echo "$passed passed, $failed failed ($(( $(date +%s) - start )) s)"
if [ "$failed" -gt 0 ] || [ "$maven_failed" -ne 0 ]; then
  [ "$maven_failed" -ne 0 ] && echo "Maven reported a failure: see $results/maven-*.log" >&2
  exit 1
fi
