#!/usr/bin/env bash
# The configuration bench: a fresh 3-node cluster (scripts/cluster.sh, one JVM per node) and the
# official nacos-client 2.5.1 in one separate JVM (the bench module's ConfigBench). Usually run as
# `scripts/bench.sh --config [...]`. In order:
#   4  heap per configuration (every member's live heap after a full GC, jcmd GC.class_histogram,
#      empty and then holding N configurations), then kill -9 of node 3 and `start-node 3`: time
#      to ready, its count when ready, and every configuration's md5 read back from it at once
#   1  getConfig against getAllInstances(subscribe=false) of about the same answer size, 8 clients
#   2  publishConfig (1 KiB) against registerInstance(ephemeral=false), 8 clients
#   3  fan-out: L listening ConfigServices (one gRPC connection each) over the 3 members, spread
#      over D driver JVMs of their own (FanOutDriver), one publish through member 1, its
#      acknowledgement -> each listener's receiveConfigInfo (epoch microseconds, one wall clock on
#      one machine); around each round the members' nacre_config_notifications_seconds timer
#      (GET /metrics) gives the server's part: change on the member -> the client's ack
#
#   scripts/bench.sh --config [--quick] [--configurations N] [--listeners N] [--rounds N]
#                    [--driver-jvms D] [--driver-heap SIZE] [--fanout-rounds N] [--fanout-only]
#                    [--heap SIZE] [--base-port P] [--keep]
#
#   --quick            a smoke run: 1,000 configurations, 200 listeners, 4,000 reads, 200 writes,
#                      1 round, 5 fan-out rounds, 5 s settle: not figures to quote
#   --configurations N held for the heap and restart figures (default 10000)
#   --listeners N      ConfigServices listening in the fan-out (default 1000)
#   --rounds N         measured rounds of figures 1 and 2, after a warm-up round (default 3)
#   --driver-jvms D    JVMs the fan-out's listeners are spread over (default 5); 0: all in the
#                      bench's own JVM, as before
#   --driver-heap SIZE -Xmx of each driver JVM (default 512m)
#   --fanout-rounds N  measured fan-out rounds, after a warm-up round (default 20)
#   --fanout-only      figure 3 alone (no heap, restart, reads or writes)
#   --heap SIZE        each node's -Xmx (default 512m, as cluster.sh)
#   --base-port P      first main port (default 19848)
#   --keep             keep the work folder (node logs, client logs)
#   (the heap is read 70 s after the last publish, once Ratis' 60 s retry cache let go)
#   Why several driver JVMs: 1,000 ConfigServices in one JVM (about 6,000 threads) did not finish
#   connecting within 3 minutes on the shared 2-core VM (load average over 300, gRPC timeouts);
#   200 did in 3 s.
#
# Prints a Markdown table (medians over the rounds, the rounds, targets) with the command and
# commit: the lead copies it into docs/BENCHMARKS.md. Exits 1 on a setup failure or lost writes.
set -euo pipefail
peers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$peers_dir/../lib.sh"
. "$peers_dir/bench-module.sh"

command_line="scripts/bench.sh $*"
heap=512m; base=19848; keep=false; extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --config) shift ;;
    --quick) extra+=(--configurations 1000 --listeners 200 --reads 4000 --writes 200 --rounds 1 --fanout-rounds 5
                     --settle-seconds 5 --restarts 1); shift ;;
    --configurations|--listeners|--rounds|--driver-jvms|--driver-heap|--fanout-rounds) extra+=("$1" "$2"); shift 2 ;;
    --fanout-only) extra+=(--fanout-only); shift ;;
    --heap) heap=$2; shift 2 ;;
    --base-port) base=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-config-bench.XXXXXX")
cleanup() {
  local rc=$?
  "$nacre_root/scripts/cluster.sh" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [ $rc -eq 0 ] && ! $keep; then rm -rf "$work"; else echo "config bench files kept in $work" >&2; fi
}
trap cleanup EXIT

commit=$(git -C "$nacre_root" rev-parse --short HEAD 2>/dev/null || echo '?')
echo "== Nacre config bench $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $commit, $(nproc) cores, -Xmx$heap per node"
cp=$(bench_module_classpath "$work")
nacre_ensure_built
JAVA_OPTS="-Xmx$heap" "$nacre_root/scripts/cluster.sh" start 3 --base-port "$base" --dir "$work/cluster"
nodes=""
for i in 1 2 3; do nodes+="127.0.0.1:$((base + 10 * (i - 1))),"; done
c="$nacre_root/scripts/cluster.sh"
# The restarted node gets the same heap as at the first start.
restart="$c kill 3 --dir $work/cluster && JAVA_OPTS=-Xmx$heap $c start-node 3 --dir $work/cluster"

# A thousand ConfigServices hold about ten threads each: small stacks, and a heap for their caches.
# limitTime: nacos-client lets each distinct config request (class + fields, so one dataId's reads)
# through at 5 a second per JVM (a static Guava RateLimiter, waiting up to 1 s, then failing with
# "More than client-side current limit threshold"). An application JVM reads a key now and then;
# this one JVM stands for a thousand applications, so the limit is lifted: with it, 16 keys read
# at 80/s in all, and a fan-out to 200 listeners in one JVM took 40 s.
java ${CONFIG_BENCH_JAVA_OPTS:--Xmx2g -Xss512k} -DlimitTime=1000000 -Dnacos.logging.default.config.enabled=false \
  -Djava.util.logging.config.file="$nacre_root/bench/target/classes/logging.properties" \
  -DJM.LOG.PATH="$work/nacos-client/logs" -DJM.SNAPSHOT.PATH="$work/nacos-client" \
  -cp "$cp" dev.nacre.bench.config.ConfigBench --nodes "${nodes%,}" --cluster-dir "$work/cluster" \
  --clk-tck "$(getconf CLK_TCK)" --restart-command "$restart" --command "$command_line" --commit "$commit" "${extra[@]}"
