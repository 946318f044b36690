#!/usr/bin/env bash
# The soak (issue 11 §4; not part of CI): a 3-node cluster under churn from the official client
# for an hour, one node killed (kill -9) and started again every 5 minutes, in turn. Every minute
# it prints each node's heap after a full GC, thread count, open files and data size on disk;
# at the end it checks that they stayed flat and that every node lists exactly what the clients
# hold. Exits 1 when a view is wrong or a figure grew, 2 on a setup failure.
#
#   scripts/soak.sh [--minutes N] [--restart-every M] [--clients C] [--rate R] [--base-port P] [--keep]
#
#   --minutes N        how long the churn runs (default 60)
#   --restart-every M  minutes between node restarts (default 5; 0: none)
#   --clients C        official nacos-client instances, each knowing every node (default 6)
#   --rate R           registrations and removals a second, all clients together (default 40)
#   --base-port P      first main port (default 29848; P, P+10, P+20 and their derived ports)
#   --keep             keep the work folder (cluster logs, samples.tsv, driver.log)
#
# Flat means: over the last third of the run, each figure's highest sample (any node) is at most
# 1.5 times, plus a small allowance, its highest sample over the first third.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/lib.sh"
. "$root/scripts/peers/bench-module.sh"

minutes=60; every=5; clients=6; rate=40; base=29848; keep=false
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --restart-every) every=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --base-port) base=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-soak.XXXXXX")
cluster="$root/scripts/cluster.sh"
driver_pid=""
cleanup() {
  local rc=$?
  [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true
  "$cluster" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [ $rc -eq 0 ] && ! $keep; then rm -rf "$work"; else echo "soak files kept in $work" >&2; fi
}
trap cleanup EXIT

echo "== Nacre soak $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'):" \
  "$minutes min, a restart every $every min, $clients clients, $rate operations/s"
cp=$(bench_module_classpath "$work") || exit 2
nacre_ensure_built
"$cluster" start 3 --base-port "$base" --dir "$work/cluster" || exit 2
nodes=""
for i in 1 2 3; do nodes+="127.0.0.1:$((base + 10 * (i - 1))),"; done

java -Xmx1g -Dnacos.logging.default.config.enabled=false \
  -Djava.util.logging.config.file="$root/bench/target/classes/logging.properties" \
  -DJM.LOG.PATH="$work/nacos-client/logs" -DJM.SNAPSHOT.PATH="$work/nacos-client" \
  -cp "$cp" dev.nacre.bench.soak.SoakDriver --nodes "${nodes%,}" --seconds $((minutes * 60)) \
  --clients "$clients" --rate "$rate" >"$work/driver.log" 2>&1 &
driver_pid=$!

pid_of() { cat "$work/cluster/node-$1/pid"; }
heap_after_gc_mb() { # used heap right after a full GC, MB
  jcmd "$1" GC.run >/dev/null 2>&1 || { echo 0; return; }
  jcmd "$1" GC.heap_info 2>/dev/null | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); print int(v / 1024); exit } }'
}
sample() { # minute node heapMB threads fds diskMB
  local i=$1 pid; pid=$(pid_of "$i")
  if ! kill -0 "$pid" 2>/dev/null; then echo "node $i is not running" >&2; return; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$i" "$(heap_after_gc_mb "$pid")" \
    "$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")" "$(ls "/proc/$pid/fd" | wc -l)" \
    "$(du -sm "$work/cluster/node-$i/data" | cut -f1)"
}

printf 'minute\tnode\theap_mb\tthreads\tfds\tdisk_mb\n' | tee "$work/samples.tsv"
next_restart=1
start=$(date +%s)
for minute in $(seq 1 "$minutes"); do
  # Sleep to the minute mark (bounded: the loop runs $minutes times).
  now=$(date +%s); wait_s=$((start + 60 * minute - now)); [ $wait_s -gt 0 ] && sleep "$wait_s"
  kill -0 "$driver_pid" 2>/dev/null || { echo "the load driver stopped early:"; tail -20 "$work/driver.log"; exit 1; }
  for i in 1 2 3; do sample "$i" "$minute" | tee -a "$work/samples.tsv"; done
  if [ "$every" -gt 0 ] && [ $((minute % every)) -eq 0 ] && [ "$minute" -lt "$minutes" ]; then
    echo "minute $minute: restarting node $next_restart"
    "$cluster" kill "$next_restart" --dir "$work/cluster"
    t0=$(date +%s%N)
    "$cluster" start-node "$next_restart" --dir "$work/cluster" >/dev/null
    echo "minute $minute: node $next_restart ready again after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
    next_restart=$((next_restart % 3 + 1))
  fi
  grep '^soak: minute' "$work/driver.log" | tail -1 || true
done

rc=0
wait "$driver_pid" || rc=1
driver_pid=""
grep '^soak: ' "$work/driver.log" | grep -v '^soak: minute' || true

# Flatness: the last third's highest sample of each figure against the first third's.
if ! awk -F'\t' -v n="$minutes" '
  NR == 1 { next }
  { third = ($1 <= n / 3) ? 1 : ($1 > 2 * n / 3 ? 3 : 2)
    for (f = 3; f <= 6; f++) if ($f > max[third, f]) max[third, f] = $f }
  END {
    split("heap_mb threads fds disk_mb", name, " "); split("64 40 60 64", slack, " "); bad = 0
    for (f = 3; f <= 6; f++) {
      first = max[1, f]; last = max[3, f]; limit = 1.5 * first + slack[f - 2]
      printf "%-8s first third max %6d, last third max %6d (limit %d): %s\n", name[f - 2], first, last, limit,
        (last <= limit ? "flat" : "GREW")
      if (last > limit) bad = 1
    }
    exit bad
  }' "$work/samples.tsv"; then
  rc=1
fi
[ $rc -eq 0 ] && echo "soak passed" || echo "soak FAILED"
exit $rc
