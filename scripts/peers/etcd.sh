# Sourced by peer-bench.sh: an etcd cluster (Debian's etcd-server) on loopback, one process per
# member, fsync on (etcd's default), stopped by PID.
#
# Ports for member i (from 1): client B+10(i-1), peer +1.

etcd_ensure_installed() { # installs Debian's etcd-server when etcd is missing; stops a service apt started
  command -v etcd >/dev/null && return 0
  echo "== installing Debian's etcd-server with apt-get" >&2
  local before pid
  before=" $(pgrep -x etcd | tr '\n' ' ' || true) "  # pgrep fails when none runs: not an error here
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q etcd-server >&2
  # The package enables an etcd service (on 2379/2380); on a machine with an init system it may
  # start right away. It is not ours to benchmark and would take CPU: stop what apt started only.
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    systemctl disable --now etcd >&2 2>&1 || true
  fi
  for pid in $(pgrep -x etcd); do
    if [[ $before != *" $pid "* ]]; then echo "stopping the etcd (pid $pid) that apt started" >&2; kill "$pid" 2>/dev/null || true; fi
  done
  command -v etcd >/dev/null || { echo "apt-get installed etcd-server but there is no etcd command" >&2; return 1; }
}

etcd_start() { # etcd_start N BASE DIR -> members up and healthy; pids in DIR/etcd-I/pid
  local n=$1 b=$2 dir=$3 i p cluster=""
  for i in $(seq 1 "$n"); do
    p=$((b + 10 * (i - 1)))
    cluster+="e$i=http://127.0.0.1:$((p + 1)),"
  done
  cluster=${cluster%,}
  for i in $(seq 1 "$n"); do
    p=$((b + 10 * (i - 1)))
    mkdir -p "$dir/etcd-$i"
    # env -i: no ETCD_* variables of the caller's shell may change the configuration.
    env -i PATH="$PATH" etcd --name "e$i" --data-dir "$dir/etcd-$i/data" \
        --listen-client-urls "http://127.0.0.1:$p" --advertise-client-urls "http://127.0.0.1:$p" \
        --listen-peer-urls "http://127.0.0.1:$((p + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((p + 1))" \
        --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token "nacre-bench-$$" \
        --logger zap --log-level warn --log-outputs stderr > "$dir/etcd-$i/out" 2>&1 &
    echo $! > "$dir/etcd-$i/pid"
  done
  local deadline=$((SECONDS + 60)) healthy
  while :; do
    healthy=0
    for i in $(seq 1 "$n"); do
      kill -0 "$(cat "$dir/etcd-$i/pid")" 2>/dev/null || { echo "etcd member $i exited; see $dir/etcd-$i/out" >&2; tail -n 20 "$dir/etcd-$i/out" >&2; return 1; }
      curl -sf -m 2 "http://127.0.0.1:$((b + 10 * (i - 1)))/health" 2>/dev/null | grep -q '"health":"true"' && healthy=$((healthy + 1))
    done
    [ "$healthy" = "$n" ] && break
    [ $SECONDS -lt $deadline ] || { echo "etcd not healthy after 60 s; see $dir/etcd-*/out" >&2; return 1; }
    sleep 0.3
  done
  echo "etcd $(etcd --version | sed -n 's/^etcd Version: //p'): $n member(s) healthy"
}

etcd_pids() { pidfile_list "$1" etcd; } # etcd_pids DIR -> comma list
etcd_stop() { pidfile_stop "$1" etcd; } # etcd_stop DIR: each member by its PID
