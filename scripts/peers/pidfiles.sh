# Sourced by peer-bench.sh: the servers a peer script started, one pid file each at DIR/PREFIX-*/pid.

pidfile_list() { # pidfile_list DIR PREFIX -> their PIDs, comma-separated
  local f out=""
  for f in "$1"/"$2"-*/pid; do [ -f "$f" ] && out+="$(cat "$f"),"; done
  echo "${out%,}"
}

pidfile_stop() { # pidfile_stop DIR PREFIX: TERM each, then KILL what is still there after 10 s
  local f pid
  for f in "$1"/"$2"-*/pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  for f in "$1"/"$2"-*/pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    for _ in $(seq 1 100); do pid_running "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}
