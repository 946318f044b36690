# Shared by the scripts: build the node jar when its sources are newer than it. Only the modules
# the jar is made of count (not target/ or tests), so editing tests or benchmarks never rebuilds
# the jar under running nodes.
nacre_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nacre_jar="$nacre_root/node/target/nacre-node.jar"

nacre_ensure_built() {
  local newer=""
  if [ -f "$nacre_jar" ]; then
    newer=$(cd "$nacre_root" && find pom.xml proto storage consensus naming node \
      \( -path '*/target' -o -path '*/src/test' \) -prune -o -type f -newer "$nacre_jar" -print -quit)
  fi
  if [ ! -f "$nacre_jar" ] || [ -n "$newer" ]; then
    echo "Building Nacre (the first build downloads dependencies, about a minute)..." >&2
    # Only the node and what it is made of: not the test modules (spring-tests alone pulls in Spring).
    (cd "$nacre_root" && mvn -B -q -DskipTests -pl node -am package >&2)
  fi
  if [ -z "$(nacre_cds_opts)" ]; then nacre_write_cds_archive; fi
}

# Class data sharing: the classes a node loads while it starts, parsed and verified once and
# mapped by every later start, which then takes about a third less CPU. Nodes use the archive when
# it is newer than the jar (a rebuild makes it stale).
nacre_cds_archive="${nacre_jar%.jar}.jsa"
nacre_cds_opts() {
  if [ -f "$nacre_cds_archive" ] && [ "$nacre_cds_archive" -nt "$nacre_jar" ]; then
    echo "-XX:SharedArchiveFile=$nacre_cds_archive -Xlog:cds=off -Xlog:cds+dynamic=off"
  fi
}

# Writes the archive right after a build, so that the first start of a cluster and a node
# restarted after a crash use it too: a 3-node cluster on loopback in a temporary folder starts,
# elects a leader and stops (about 15 s); node 1 writes the classes it loaded when it exits. A
# failure costs only speed: nodes then start without the archive.
nacre_write_cds_archive() {
  local work base i port members="" pids=() ok=true deadline
  work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-cds.XXXXXX")
  # Main ports base, base+10, base+20 (and P-1000, P+1000, P+1001 each): under the kernel's
  # ephemeral range (32768+), at a random base so that two builds at once do not collide.
  base=$((21000 + 100 * (RANDOM % 80)))
  for i in 1 2 3; do members+="127.0.0.1:$((base + 10 * (i - 1))),"; done
  printf 'nacre.members=%s\nnacre.cluster.secret=%s\n' "${members%,}" \
    "$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')" > "$work/nacre.properties"
  echo "Writing the class data archive (a 3-node cluster starts and stops on ports $base..$((base + 1021)))..." >&2
  for i in 1 2 3; do
    port=$((base + 10 * (i - 1)))
    local dump=""; [ "$i" = 1 ] && dump="-XX:ArchiveClassesAtExit=$work/node.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
    # shellcheck disable=SC2086
    java -Xmx512m $nacre_jit_opts $nacre_native_opts $dump -Dnacre.logs.dir="$work/node-$i/logs" \
      -jar "$nacre_jar" --config "$work/nacre.properties" --port "$port" --data-dir "$work/node-$i/data" \
      > "$work/node-$i.out" 2>&1 &
    pids+=($!)
  done
  deadline=$((SECONDS + 60))
  for i in 1 2 3; do
    port=$((base + 10 * (i - 1)))
    until curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port/nacos/v1/console/health/readiness"; do
      if [ $SECONDS -ge $deadline ] || ! pid_running "${pids[$((i - 1))]}"; then ok=false; break 2; fi
      sleep 0.1
    done
  done
  until ! $ok || curl -sf -m 2 "http://127.0.0.1:$base/nacre/v1/status" | grep -q 'leader=1'; do
    if [ $SECONDS -ge $deadline ]; then ok=false; fi
    sleep 0.1
  done
  kill "${pids[@]}" 2>/dev/null || true
  for i in 0 1 2; do
    for _ in $(seq 1 300); do pid_running "${pids[$i]}" || break; sleep 0.1; done
    pid_running "${pids[$i]}" && kill -9 "${pids[$i]}" 2>/dev/null
  done
  wait "${pids[@]}" 2>/dev/null || true
  if $ok && [ -s "$work/node.jsa" ]; then
    mv "$work/node.jsa" "$nacre_cds_archive"
    rm -rf "$work"
  else
    echo "Could not write the class data archive (logs kept in $work); nodes start without it, a little slower." >&2
  fi
}

# JIT of a node: C1 only. On 2 cores, C2 compiled the node's (large: two gRPC stacks, Ratis, protobuf)
# code for minutes and took about half of a node's CPU under load; with C1 alone the same quick
# run took 1.7x the ephemeral and query rates (docs/PERFORMANCE.md). CompileThresholdScaling=0.1
# compiles a method after a tenth of the usual calls: C1 is cheap, and a fresh or restarted node
# reached its speed within its first few hundred requests instead of thousands (1.3-1.8x the
# first rounds' rates). Set NACRE_JIT_OPTS= (empty) to get the JVM's default tiered compilation back.
nacre_jit_opts=${NACRE_JIT_OPTS--XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1}

# Native libraries (RocksDB, the Netty copies of gRPC and Ratis) from the build's native/ folder
# (node/pom.xml): without it each start unpacks about 21 MB of them into the temp folder.
nacre_native_opts="-Djava.library.path=$nacre_root/node/target/native"

# True while process PID runs. A killed process that its parent has not reaped yet (a zombie)
# counts as gone: its ports and files are already released. Nodes started by cluster.sh are
# orphans, and PID 1 of a container can take a second or two to reap them.
pid_running() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}
