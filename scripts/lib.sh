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
}

# JIT of a node: C1 only. On 2 cores, C2 compiled the node's (large: two gRPC stacks, Ratis, protobuf)
# code for minutes and took about half of a node's CPU under load; with C1 alone the same quick
# run took 1.7x the ephemeral and query rates (docs/PERFORMANCE.md). CompileThresholdScaling=0.1
# compiles a method after a tenth of the usual calls: C1 is cheap, and a fresh or restarted node
# reached its speed within its first few hundred requests instead of thousands (1.3-1.8x the
# first rounds' rates). Set NACRE_JIT_OPTS= (empty) to get the JVM's default tiered compilation back.
nacre_jit_opts=${NACRE_JIT_OPTS--XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1}

# True while process PID runs. A killed process that its parent has not reaped yet (a zombie)
# counts as gone: its ports and files are already released. Nodes started by cluster.sh are
# orphans, and PID 1 of a container can take a second or two to reap them.
pid_running() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}
