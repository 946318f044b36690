#!/usr/bin/env bash
# A local cluster of Nacre nodes on loopback, one JVM each, for trying things out and fault drills.
#
#   scripts/cluster.sh start N [--base-port P] [--dir D]   start N nodes (ports P, P+10, ...; default 8848)
#   scripts/cluster.sh status [--dir D]                   each node: address, state, Raft role, leader
#   scripts/cluster.sh stop [--dir D]                     stop every node
#   scripts/cluster.sh kill I [--dir D]                   kill -9 node I (counted from 1)
#   scripts/cluster.sh start-node I [--dir D]             start node I again on its folder and ports
#   scripts/cluster.sh wipe I [--dir D]                   delete node I's data (stop or kill it first)
#   scripts/cluster.sh add-node [--dir D]                 start node N+1 and add it to the running cluster
#   scripts/cluster.sh remove-node I [--dir D]            take node I out of the cluster, then stop it
#
# D (default ./cluster) holds everything needed to find the nodes again: cluster.env, the secret
# in nacre.properties (mode 600), and per node its data, log and pid under node-I/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

cmd=${1:-}; [ -n "$cmd" ] || usage; shift
arg=""
if [ $# -gt 0 ] && [[ $1 != --* ]]; then arg=$1; shift; fi
dir=./cluster; base=8848
while [ $# -gt 0 ]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --base-port) base=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
mkdir -p "$dir"; dir=$(cd "$dir" && pwd)

load_env() {
  [ -f "$dir/cluster.env" ] || { echo "no cluster in $dir: run 'scripts/cluster.sh start N --dir $dir' first" >&2; exit 1; }
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
}
port_of() { echo $((BASE_PORT + 10 * ($1 - 1))); }
pid_of() { cat "$dir/node-$1/pid" 2>/dev/null || true; }
alive() { local p=""; { read -r p < "$dir/node-$1/pid"; } 2>/dev/null; [ -n "$p" ] && pid_running "$p"; }
removed() { [ -f "$dir/node-$1/removed" ]; }
check_index() {
  [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$NODES" ] || { echo "node index must be 1..$NODES, got '$1'" >&2; exit 2; }
}

start_node() {
  local i=$1 port; port=$(port_of "$i")
  if alive "$i"; then echo "node $i already runs (pid $(pid_of "$i"))"; return; fi
  mkdir -p "$dir/node-$i"
  # shellcheck disable=SC2046
  (cd "$dir/node-$i" && exec java ${JAVA_OPTS:--Xmx512m} $nacre_jit_opts $nacre_native_opts $(nacre_cds_opts_for_node "$i") -Dnacre.logs.dir="$dir/node-$i/logs" -jar "$nacre_jar" \
      --config "$dir/nacre.properties" --port "$port" --data-dir "$dir/node-$i/data" \
      > "$dir/node-$i/node.out" 2>&1) &
  echo $! > "$dir/node-$i/pid"
  echo "node $i: pid $! on 127.0.0.1:$port (log $dir/node-$i/node.out)"
}

# Ready = Nacos' readiness probe answers 200: the node loaded the ephemeral registry from a peer
# (or found none) and its client ports are open. Polled often: a restart takes a second or two.
await_ready() {
  local i=$1 port deadline; port=$(port_of "$i"); deadline=$((SECONDS + 90))
  until http_get "$port" /nacos/v1/console/health/readiness; do
    if ! alive "$i"; then echo "node $i exited; last lines of its log:" >&2; tail -n 20 "$dir/node-$i/node.out" >&2; exit 1; fi
    if [ $SECONDS -ge $deadline ]; then echo "node $i not ready after 90 s; see $dir/node-$i/node.out" >&2; exit 1; fi
    nap 0.05
  done
}

# Each node's status line, in $report; true once every running member names the same leader (a
# follower learns it from the leader's first message, a moment after the election).
status_report() {
  local i line leader="" agreed=true
  report=""
  for ((i = 1; i <= NODES; i++)); do
    if removed "$i"; then report+="node $i: 127.0.0.1:$(port_of "$i") removed from the cluster"$'\n'; continue; fi
    if http_get "$(port_of "$i")" /nacre/v1/status; then line=${http_body%$'\n'}; else line="127.0.0.1:$(port_of "$i") DOWN (not answering)"; fi
    if [[ $line =~ leader=([^ ]+) ]] && [ "${BASH_REMATCH[1]}" != none ] && [ "${leader:-${BASH_REMATCH[1]}}" = "${BASH_REMATCH[1]}" ]; then
      leader=${BASH_REMATCH[1]}
    else
      agreed=false
    fi
    report+="node $i: $line"$'\n'
  done
  $agreed
}

# Prints the status once every member agrees on a leader, or after 30 s with a warning.
await_leader() {
  local deadline=$((SECONDS + 30))
  until status_report; do
    if [ $SECONDS -ge $deadline ]; then
      printf '%s' "$report"
      echo "no Raft leader that every member knows after 30 s: CP writes may fail until there is one" >&2
      return 0
    fi
    nap 0.05
  done
  printf '%s' "$report"
}

# The members as a running node knows them (its Raft configuration), comma-separated.
current_members() {
  local i
  for i in $(seq 1 "$NODES"); do
    if alive "$i" && ! removed "$i"; then
      curl -sf -m 5 "http://127.0.0.1:$(port_of "$i")/nacre/v1/cluster/members" \
        | sed 's/.*"members":\[\([^]]*\)\].*/\1/' | tr -d '"' && return 0
    fi
  done
  echo "no running member answers; start the cluster first" >&2; exit 1
}
# Any running member other than node $1, for admin calls.
other_member() {
  local i
  for i in $(seq 1 "$NODES"); do
    if [ "$i" != "$1" ] && alive "$i" && ! removed "$i"; then echo "127.0.0.1:$(port_of "$i")"; return 0; fi
  done
  echo "no other running member to ask; start one first" >&2; exit 1
}
# The member list every node starts with (a restarted member takes the current one from its Raft log).
set_members() {
  local tmp="$dir/nacre.properties.tmp"
  (umask 077; grep -v '^nacre.members=' "$dir/nacre.properties" > "$tmp"; echo "nacre.members=$1" >> "$tmp")
  mv "$tmp" "$dir/nacre.properties"
}

case $cmd in
  start)
    n=${arg:-3}
    # Started again: the count is the folder's (it grows with add-node).
    if [ -z "$arg" ] && [ -f "$dir/cluster.env" ]; then n=$(sed -n 's/^NODES=//p' "$dir/cluster.env"); fi
    [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || { echo "start takes a node count, e.g. 3" >&2; exit 2; }
    if [ -f "$dir/cluster.env" ]; then
      load_env
      [ "$n" = "$NODES" ] && [ "$base" = "$BASE_PORT" ] || { echo "$dir holds a $NODES-node cluster on base port $BASE_PORT (start it with 'start --dir $dir --base-port $BASE_PORT'); use another --dir for a new one" >&2; exit 1; }
    else
      NODES=$n; BASE_PORT=$base
      printf 'NODES=%s\nBASE_PORT=%s\n' "$NODES" "$BASE_PORT" > "$dir/cluster.env"
      members=$(for i in $(seq 1 "$NODES"); do printf '127.0.0.1:%s,' "$(port_of "$i")"; done); members=${members%,}
      umask 077
      { echo "nacre.members=$members"; echo "nacre.cluster.secret=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"; } > "$dir/nacre.properties"
      umask 022
    fi
    nacre_ensure_built
    for i in $(seq 1 "$NODES"); do removed "$i" || start_node "$i"; done
    for i in $(seq 1 "$NODES"); do removed "$i" || await_ready "$i"; done
    await_leader
    ;;
  status)
    load_env
    status_report || true
    printf '%s' "$report"
    ;;
  stop)
    load_env
    for i in $(seq 1 "$NODES"); do
      if alive "$i"; then kill "$(pid_of "$i")"; fi
    done
    for i in $(seq 1 "$NODES"); do
      # up to 30 s for a clean stop (Raft and RocksDB close)
      for _ in $(seq 1 300); do alive "$i" || break; nap 0.1; done
      if alive "$i"; then kill -9 "$(pid_of "$i")"; fi
      rm -f "$dir/node-$i/pid"
    done
    echo "stopped"
    ;;
  kill)
    load_env; check_index "$arg"
    if alive "$arg"; then
      kill -9 "$(pid_of "$arg")"
      # Return only once it is gone, so that start-node right after finds its ports free.
      for _ in $(seq 1 500); do alive "$arg" || break; nap 0.01; done
      echo "node $arg killed"
    else
      echo "node $arg is not running"
    fi
    ;;
  start-node)
    load_env; check_index "$arg"; nacre_ensure_built
    if removed "$arg"; then echo "node $arg was removed from the cluster; use add-node for a new member" >&2; exit 1; fi
    start_node "$arg"; await_ready "$arg"
    ;;
  wipe)
    load_env; check_index "$arg"
    if alive "$arg"; then echo "node $arg runs: stop or kill it first" >&2; exit 1; fi
    rm -rf "$dir/node-$arg/data"; echo "node $arg wiped"
    ;;
  add-node)
    load_env; nacre_ensure_built
    members=$(current_members); asked=$(other_member 0)
    NODES=$((NODES + 1)); new="127.0.0.1:$(port_of "$NODES")"
    printf 'NODES=%s\nBASE_PORT=%s\n' "$NODES" "$BASE_PORT" > "$dir/cluster.env"
    set_members "$members,$new"
    # Started first, with the new list, so that it runs when the leader brings it up to date.
    start_node "$NODES"
    "$(dirname "$0")/nacre" --server "$asked" members add "$new"
    await_ready "$NODES"
    echo "node $NODES ($new) is a member"
    ;;
  remove-node)
    load_env; check_index "$arg"
    if removed "$arg"; then echo "node $arg was removed already" >&2; exit 1; fi
    gone="127.0.0.1:$(port_of "$arg")"; asked=$(other_member "$arg")
    "$(dirname "$0")/nacre" --server "$asked" members remove "$gone"
    touch "$dir/node-$arg/removed"
    set_members "$(current_members)"
    if alive "$arg"; then
      kill "$(pid_of "$arg")"
      for _ in $(seq 1 300); do alive "$arg" || break; nap 0.1; done
      if alive "$arg"; then kill -9 "$(pid_of "$arg")"; fi
    fi
    rm -f "$dir/node-$arg/pid"
    echo "node $arg ($gone) removed and stopped; its data stays in $dir/node-$arg (it refuses to rejoin as it is)"
    ;;
  *) usage ;;
esac
