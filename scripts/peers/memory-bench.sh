#!/usr/bin/env bash
# Heap per instance: a fresh 3-node cluster, the official client batch-registers ephemeral
# instances (services x per-service, from 8 clients) and then registers persistent ones one by
# one; every node's live heap after a full GC (jcmd GC.class_histogram) before and after each.
# Usually run as `scripts/bench.sh --memory [...]`.
#
#   scripts/bench.sh --memory [--services N] [--per-service N] [--persistent N] [--heap SIZE]
#                    [--restart] [--base-port P] [--keep]
#
#   --services N     ephemeral services (default 1000), each batch-registered in one request
#   --per-service N  instances per service (default 100)
#   --persistent N   persistent instances after them (default 10000; 0 skips)
#   --restart        then kill -9 node 3 and start it again: time to ready, and what it lists
#   --heap SIZE      each node's -Xmx (default 2g, the issue's bound for a million instances)
#   (the persistent heap is read 70 s after the last write, once Ratis' 60 s retry cache let go)
set -euo pipefail
peers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$peers_dir/../lib.sh"
. "$peers_dir/bench-module.sh"

services=1000; per_service=100; persistent=10000; heap=2g; base=19848; keep=false; restart=false
while [ $# -gt 0 ]; do
  case $1 in
    --memory) shift ;;
    --services) services=$2; shift 2 ;;
    --per-service) per_service=$2; shift 2 ;;
    --persistent) persistent=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --restart) restart=true; shift ;;
    --base-port) base=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-memory.XXXXXX")
cleanup() {
  local rc=$?
  "$nacre_root/scripts/cluster.sh" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [ $rc -eq 0 ] && ! $keep; then rm -rf "$work"; else echo "memory bench files kept in $work" >&2; fi
}
trap cleanup EXIT

echo "== Nacre memory bench $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$nacre_root" rev-parse --short HEAD 2>/dev/null || echo '?'), -Xmx$heap per node"
cp=$(bench_module_classpath "$work")
nacre_ensure_built
JAVA_OPTS="-Xmx$heap" "$nacre_root/scripts/cluster.sh" start 3 --base-port "$base" --dir "$work/cluster"
nodes=""; pids=""
for i in 1 2 3; do
  nodes+="127.0.0.1:$((base + 10 * (i - 1))),"; pids+="$(cat "$work/cluster/node-$i/pid"),"
done
restart_args=()
if $restart; then
  c="$nacre_root/scripts/cluster.sh"
  # The restarted node gets the same heap as at the first start (cluster.sh's default is 512 MiB).
  restart_args=(--restart-command "$c kill 3 --dir $work/cluster && JAVA_OPTS=-Xmx$heap $c start-node 3 --dir $work/cluster")
fi
java -Xmx3g -Dnacos.logging.default.config.enabled=false \
  -Djava.util.logging.config.file="$nacre_root/bench/target/classes/logging.properties" \
  -DJM.LOG.PATH="$work/nacos-client/logs" -DJM.SNAPSHOT.PATH="$work/nacos-client" \
  -cp "$cp" dev.nacre.bench.memory.MemoryBench --nodes "${nodes%,}" --pids "${pids%,}" \
  --services "$services" --per-service "$per_service" --persistent "$persistent" "${restart_args[@]}"

