#!/usr/bin/env bash
# The peer benchmark: Nacre beside ZooKeeper and etcd, one system after the other, each driven by
# the same bounded load from the bench module (8 clients, each its own connection, client c on
# node c % nodes). Usually run as `scripts/bench.sh --against zookeeper,etcd [...]`.
#
#   scripts/bench.sh --against zookeeper,etcd [--quick] [--sustained] [--nodes 1|3]
#                    [--base-port P] [--keep]
#
#   --against LIST  peers to run after Nacre: zookeeper, etcd or both (comma-separated)
#   --quick         600 ephemeral / 200 persistent registrations, 5 s of queries a round (< 5 min)
#                   instead of 2000 / 500 / 15 s
#   --sustained     also 10 s warm-up + 15 s measured of as many persistent registrations and as
#                   many queries as each system takes
#   --nodes N       3 (default) or 1: a single Nacre node, a standalone ZooKeeper, a single etcd
#   --base-port P   Nacre's first main port (default 19848); ZooKeeper uses P+300.., etcd P+400..
#   --keep          keep the work folder (configs, data, logs, results.tsv)
#
# Prints the table (a Markdown section with its command, commit and setup): put its figures into
# docs/BENCHMARKS.md in place of the old ones, which holds the current figures only.
#
# Needs: java 17, mvn (the bench module's dependencies come from Maven Central on the first
# run), curl; etcd from Debian's etcd-server, installed with apt-get when missing.
set -euo pipefail
peers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$peers_dir/../lib.sh"
. "$peers_dir/pidfiles.sh"
. "$peers_dir/zookeeper.sh"
. "$peers_dir/etcd.sh"
. "$peers_dir/bench-module.sh"

command_line="scripts/bench.sh $*"
against=""; quick=false; sustained=false; nodes=3; base=19848; keep=false
while [ $# -gt 0 ]; do
  case $1 in
    --against) against=$2; shift 2 ;;
    --against=*) against=${1#*=}; shift ;;
    --quick) quick=true; shift ;;
    --sustained) sustained=true; shift ;;
    --nodes) nodes=$2; shift 2 ;;
    --base-port) base=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
run_zk=false; run_etcd=false
for p in ${against//,/ }; do
  case $p in
    zookeeper|zk) run_zk=true ;;
    etcd) run_etcd=true ;;
    *) echo "--against takes zookeeper and/or etcd, not '$p'" >&2; exit 2 ;;
  esac
done
[ "$nodes" = 1 ] || [ "$nodes" = 3 ] || { echo "--nodes is 1 or 3" >&2; exit 2; }

if $quick; then EPHEMERAL=600; PERSISTENT=200; QUERY_S=5; else EPHEMERAL=2000; PERSISTENT=500; QUERY_S=15; fi
ROUNDS=2; CLIENTS=8
zk_base=$((base + 300)); etcd_base=$((base + 400))

work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-peers.XXXXXX")
results=$work/results.tsv; : > "$results"
nacre_dir=""; zk_dir=""; etcd_dir=""
cleanup() {
  local rc=$?
  [ -n "$nacre_dir" ] && "$nacre_root/scripts/cluster.sh" stop --dir "$nacre_dir" >/dev/null 2>&1 || true
  [ -n "$zk_dir" ] && zk_stop "$zk_dir" || true
  [ -n "$etcd_dir" ] && etcd_stop "$etcd_dir" || true
  if [ $rc -eq 0 ] && ! $keep; then rm -rf "$work"; else echo "peer bench files kept in $work" >&2; fi
}
trap cleanup EXIT

commit=$(git -C "$nacre_root" rev-parse --short HEAD 2>/dev/null || echo '?')
echo "== Nacre peer bench $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $commit, $(nproc) cores, nodes=$nodes, quick=$quick, against: ${against:-nothing}"

# --- build: the bench module (profile bench, not part of the default build) and the node jar ---
echo "== building the bench module"
cp=$(bench_module_classpath "$work")
deps_cp=$(cat "$work/classpath") # the ZooKeeper servers: no bench classes, no driver logback.xml
nacre_ensure_built
$run_etcd && etcd_ensure_installed
clk_tck=$(getconf CLK_TCK)

driver() {
  java ${PEER_BENCH_JAVA_OPTS:--Xmx1g} -Dnacos.logging.default.config.enabled=false \
    -Djava.util.logging.config.file="$nacre_root/bench/target/classes/logging.properties" \
    -DJM.LOG.PATH="$work/nacos-client/logs" -DJM.SNAPSHOT.PATH="$work/nacos-client" \
    -cp "$cp" dev.nacre.bench.peer.PeerBench "$@"
}
drive() { # drive SYSTEM NODES PIDS
  local extra=()
  $sustained && extra+=(--sustained)
  driver run --system "$1" --nodes "$2" --pids "$3" --clk-tck "$clk_tck" --clients "$CLIENTS" \
    --ephemeral "$EPHEMERAL" --persistent "$PERSISTENT" --query-seconds "$QUERY_S" --rounds "$ROUNDS" \
    --run-id "$(date +%s)" --out "$results" "${extra[@]}"
}
addresses() { # addresses N BASE -> 127.0.0.1:B,127.0.0.1:B+10,...
  local out="" i
  for i in $(seq 1 "$1"); do out+="127.0.0.1:$(($2 + 10 * (i - 1))),"; done
  echo "${out%,}"
}

# The highest Raft term Nacre's nodes report once every one names a leader (waits up to 30 s; "?"
# when they do not): a term that grew between the first and the last series is an election that
# the load caused (issue 9 asks for none under full load).
nacre_term() {
  local deadline=$((SECONDS + 30)) i max
  while :; do
    max=0
    for i in $(seq 1 "$nodes"); do
      if http_get "$((base + 10 * (i - 1)))" /nacre/v1/status \
          && [[ $http_body =~ leader=([^ ]+)\ term=([0-9]+) ]] && [ "${BASH_REMATCH[1]}" != none ]; then
        if [ "${BASH_REMATCH[2]}" -gt "$max" ]; then max=${BASH_REMATCH[2]}; fi
      else
        max=""; break
      fi
    done
    if [ -n "$max" ]; then echo "$max"; return; fi
    if [ $SECONDS -ge $deadline ]; then echo "?"; return; fi
    sleep 0.2
  done
}

# --- Nacre: the gRPC client, then HTTP v1, on the same cluster (distinct service names) --------
nacre_dir=$work/nacre
echo "== Nacre: $nodes node(s) from base port $base"
"$nacre_root/scripts/cluster.sh" start "$nodes" --base-port "$base" --dir "$nacre_dir"
nacre_pids=$(for i in $(seq 1 "$nodes"); do printf '%s,' "$(cat "$nacre_dir/node-$i/pid")"; done); nacre_pids=${nacre_pids%,}
term_before=$(nacre_term)
drive nacos-grpc "$(addresses "$nodes" "$base")" "$nacre_pids"
drive nacos-http "$(addresses "$nodes" "$base")" "$nacre_pids"
term_after=$(nacre_term)
if [ "$term_before" = "?" ] || [ "$term_after" = "?" ]; then
  elections="Nacre's Raft term before and after its series: $term_before, $term_after (? = no leader named within 30 s)."
else
  elections="Nacre's Raft term before the first series $term_before, after the last $term_after: $((term_after - term_before)) election(s) under the load."
fi
echo "== $elections"
"$nacre_root/scripts/cluster.sh" stop --dir "$nacre_dir" >/dev/null; nacre_dir=""

if $run_zk; then
  zk_dir=$work/zookeeper
  echo "== ZooKeeper 3.9.5: $nodes server(s) from port $zk_base"
  zk_start "$nodes" "$zk_base" "$zk_dir" "$deps_cp"
  drive zookeeper "$(addresses "$nodes" "$zk_base")" "$(zk_pids "$zk_dir")"
  zk_stop "$zk_dir"; zk_dir=""
fi

if $run_etcd; then
  etcd_dir=$work/etcd
  echo "== etcd: $nodes member(s) from port $etcd_base"
  etcd_start "$nodes" "$etcd_base" "$etcd_dir"
  drive etcd "$(addresses "$nodes" "$etcd_base")" "$(etcd_pids "$etcd_dir")"
  etcd_stop "$etcd_dir"; etcd_dir=""
fi

setup="$nodes node(s) per system on loopback, $CLIENTS clients ($([ "$nodes" = 1 ] && echo "all on the one node" || echo "client c on node c % $nodes")), a round = $EPHEMERAL ephemeral and $PERSISTENT persistent registrations, $PERSISTENT persistent deregistrations, ${QUERY_S} s of queries over 16 services of 10 instances; $ROUNDS measured rounds after an unrecorded warm-up round of the same size, median of the rounds$($sustained && echo '; sustained rows: 10 s warm-up, 15 s measured'). $(nproc) cores shared by servers and driver; server CPU = utime+stime of the server processes."
driver report --in "$results" --command "$command_line" --commit "$commit" --setup "$setup" > "$work/report.md"
printf '\n%s\n' "$elections" >> "$work/report.md"
echo
cat "$work/report.md"
