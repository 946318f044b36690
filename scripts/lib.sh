# Shared by the scripts: build the node jar when its sources are newer than it. Only the modules
# the jar is made of count (not target/ or tests), so editing tests or benchmarks never rebuilds
# the jar under running nodes.
nacre_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nacre_jar="$nacre_root/node/target/nacre-node.jar"

nacre_ensure_built() {
  local newer=""
  if [ -f "$nacre_jar" ]; then
    newer=$(cd "$nacre_root" && find pom.xml proto storage consensus naming config node \
      \( -path '*/target' -o -path '*/src/test' \) -prune -o -type f -newer "$nacre_jar" -print -quit)
  fi
  if [ ! -f "$nacre_jar" ] || [ -n "$newer" ]; then
    echo "Building Nacre (the first build downloads dependencies, about a minute)..." >&2
    # Only the node and what it is made of: not the test modules (spring-tests alone pulls in Spring).
    # Clean first: a resource deleted from the sources otherwise stays in target/ and in the jar
    # (a stale logback.xml once made every node configure its logging from XML again).
    (cd "$nacre_root" && mvn -B -q -DskipTests -pl node -am clean package >&2)
  fi
  if [ -z "${NACRE_CDS_TRAINING:-}" ] && [ -z "$(nacre_cds_opts)" ]; then nacre_write_cds_archive; fi
}

# Class data sharing: the classes a node loads while it starts, parsed, verified and laid out once
# in one archive that every later start maps, which then takes about a third less CPU. Nodes use
# the archive when it is newer than the jar (a rebuild makes it stale).
nacre_cds_archive="${nacre_jar%.jar}.jsa"
nacre_cds_opts() {
  if [ -f "$nacre_cds_archive" ] && [ "$nacre_cds_archive" -nt "$nacre_jar" ]; then
    echo "-XX:SharedArchiveFile=$nacre_cds_archive -Xlog:cds=off"
  fi
}

# Writes the archive right after a build, so that the first start of a cluster and a node
# restarted after a crash use it too: `cluster.sh` starts a 3-node cluster on loopback in a
# temporary folder, waits for a leader and stops it (about 15 s); each node lists the classes it
# loads (NACRE_CDS_TRAINING), and the JDK's and Nacre's classes of all three lists (a leader's and
# followers') go into one static archive (about 10 s more). One static archive rather than the
# JDK's own plus a dynamic one written at exit: it holds picocli's classes too (Java 5 class files,
# which a dynamic archive skips), and a restart took about 0.96x the time, a 3-node start 0.93x
# (docs/PERFORMANCE.md). A failure costs only speed: nodes then start without the archive.
nacre_write_cds_archive() {
  local work base ok=true
  work=$(mktemp -d "${TMPDIR:-/tmp}/nacre-cds.XXXXXX")
  # Ports base..base+1021: under the kernel's ephemeral range (32768+), at a random base so that
  # two builds at once do not collide.
  base=$((21000 + 100 * (RANDOM % 80)))
  echo "Writing the class data archive (a 3-node cluster starts and stops on ports $base..$((base + 1021)))..." >&2
  NACRE_CDS_TRAINING="$work" "$nacre_root/scripts/cluster.sh" start 3 --dir "$work/cluster" \
    --base-port "$base" > "$work/start.out" 2>&1 || ok=false
  "$nacre_root/scripts/cluster.sh" stop --dir "$work/cluster" >> "$work/start.out" 2>&1 || ok=false
  # Each class once, in the order first loaded.
  $ok && cat "$work"/node-*.classes 2>/dev/null | awk '!seen[$0]++' > "$work/classes" || ok=false
  # The dump runs with the nodes' heap size, so that the archived objects map without relocation.
  # shellcheck disable=SC2086
  $ok && [ -s "$work/classes" ] && java ${JAVA_OPTS:--Xmx512m} -Xshare:dump -XX:SharedClassListFile="$work/classes" \
    -XX:SharedArchiveFile="$work/node.jsa" $nacre_native_opts -cp "$nacre_jar" > "$work/dump.out" 2>&1 || ok=false
  if $ok && [ -s "$work/node.jsa" ]; then
    mv "$work/node.jsa" "$nacre_cds_archive"
    rm -rf "$work"
  else
    echo "Could not write the class data archive (logs kept in $work); nodes start without it, a little slower." >&2
  fi
}

# What a node starts with for class data sharing: the archive, or, while the archive is written
# (NACRE_CDS_TRAINING, a folder), none, and each node lists the classes it loads.
nacre_cds_opts_for_node() {
  if [ -z "${NACRE_CDS_TRAINING:-}" ]; then
    nacre_cds_opts
  else
    echo "-XX:DumpLoadedClassList=$NACRE_CDS_TRAINING/node-$1.classes"
  fi
}

# JIT of a node: C1 only. On 2 cores, C2 compiled the node's (large: gRPC, Netty, Ratis, protobuf)
# code for minutes and took about half of a node's CPU under load; with C1 alone the same quick
# run took 1.7x the ephemeral and query rates (docs/PERFORMANCE.md). CompileThresholdScaling=0.1
# compiles a method after a tenth of the usual calls: C1 is cheap, and a fresh or restarted node
# reached its speed within its first few hundred requests instead of thousands (1.3-1.8x the
# first rounds' rates). One compiler thread, not the two the JVM picks for 2 cores: a start spends
# about half its CPU compiling, and the JVM drops a queued method that stopped running before its
# turn (start-up code); a restarted node compiled a fifth fewer methods by the time it was ready,
# in half the compile time, and took about 0.86x the CPU and the time (docs/PERFORMANCE.md).
# With the count fixed, the JVM's check whether to add compiler threads only costs: in a container
# it read two of the cgroup's memory files about 170 times in a restart, on the compiler thread.
# Set NACRE_JIT_OPTS= (empty) to get the JVM's default back.
nacre_jit_opts=${NACRE_JIT_OPTS--XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1 -XX:CICompilerCount=1 -XX:-UseDynamicNumberOfCompilerThreads}

# Native libraries (RocksDB, Ratis' Netty) from the build's native/ folder (node/pom.xml): without
# it each start unpacks them (about 18 MB) into the temp folder.
nacre_native_opts="-Djava.library.path=$nacre_root/node/target/native"

# RocksDB's loader asks whether the C library is musl by running `ldd /usr/bin/env | grep musl`
# in a shell on every start unless ROCKSDB_MUSL_LIBC says: four processes, about a twentieth of a
# restart's CPU and 0.1 s of its wall time on two cores (docs/PERFORMANCE.md). The same answer
# from the file RocksDB itself falls back to (a musl system has /lib/libc.musl-<arch>.so.1).
if [ -z "${ROCKSDB_MUSL_LIBC:-}" ]; then
  ROCKSDB_MUSL_LIBC=false
  for f in /lib/libc.musl*; do [ -e "$f" ] && ROCKSDB_MUSL_LIBC=true; done
  export ROCKSDB_MUSL_LIBC
fi

# The checks below run every 50 ms while nodes start on the same cores, so they use bash alone:
# a process per check (curl, awk, cat) took CPU the starting nodes needed (docs/PERFORMANCE.md,
# "Restart").

# True while process PID runs. A killed process that its parent has not reaped yet (a zombie)
# counts as gone: its ports and files are already released. Nodes started by cluster.sh are
# orphans, and PID 1 of a container can take a second or two to reap them.
pid_running() {
  local stat=""
  { read -r stat < "/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) } # the fields after "(command)", whose name may hold spaces or parentheses
  [ -n "$stat" ] && [ "${stat%% *}" != Z ]
}

# A pause of $1 seconds without a process (`sleep` is one): a read that times out on a pipe that
# nobody writes to.
nap() {
  [ -n "${nacre_nap_fd-}" ] || exec {nacre_nap_fd}<> <(:)
  read -r -t "$1" -u "$nacre_nap_fd" || true
}

# GET of PATH on 127.0.0.1:PORT over bash's /dev/tcp, answered within 2 s: true on status 200;
# the body is left in $http_body. HTTP/1.0, so the node closes the connection after its answer.
http_get() {
  local fd response=""
  http_body=""
  { exec {fd}<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$2" "$1" >&"$fd" 2>/dev/null
  IFS= read -r -d "" -t 2 response <&"$fd" || true # ends at the end of the answer, not at a NUL
  exec {fd}>&-
  http_body=${response#*$'\r\n\r\n'}
  [[ $response == "HTTP/1."[01]" 200"* ]]
}
