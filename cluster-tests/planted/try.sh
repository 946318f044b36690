#!/usr/bin/env bash
# Plants a bug in a throwaway copy and runs scenarios against it; your worktree is not touched.
#
#   cluster-tests/planted/try.sh PATCH TESTS [SEED] [-o]
#
#   PATCH  one of cluster-tests/planted/*.patch
#   TESTS  scenarios for scripts/fault-suite.sh --only, e.g. 'CpPartitionScenarioTest#isolatedOldLeaderKeepsReceivingWrites'
#   SEED   the scenario seed (default 7)
#   -o     Maven offline
#
# The copy is a detached git worktree of HEAD under /tmp (committed files only), removed at the
# end; the scenario results are kept in /tmp/nacre-planted-<patch>-<seed>/. Exits 0 when at least
# one scenario FAILED (the suite caught the bug), 1 when every scenario passed.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
patch=$(realpath "$1"); tests=$2; seed=${3:-7}; offline=()
[ "${4:-}" = "-o" ] && offline=(-o)
name=$(basename "$patch" .patch)
scratch=$(mktemp -d "/tmp/nacre-planted-tree.XXXXXX")
results="/tmp/nacre-planted-$name-$seed"
git -C "$root" worktree add --detach -q "$scratch/wt" HEAD
cleanup() { git -C "$root" worktree remove --force "$scratch/wt"; rm -rf "$scratch"; }
trap cleanup EXIT
cd "$scratch/wt"
git apply "$patch"
echo "planted $name; running $tests with seed $seed"
status=0
bash scripts/fault-suite.sh --only "$tests" --seed "$seed" ${offline[@]+"${offline[@]}"} || status=$?
rm -rf "$results"; mkdir -p "$results"
cp -r cluster-tests/target/fault-suite/. "$results/" 2>/dev/null || true
echo "reports: $results"
if [ "$status" -ne 0 ] && grep -q ' FAIL ' "$results/verdicts.log" 2>/dev/null; then
  echo "caught: the suite failed on the planted bug"
  exit 0
fi
echo "NOT caught: the suite passed (or produced no verdict) with the planted bug"
exit 1
