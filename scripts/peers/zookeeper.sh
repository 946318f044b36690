# Sourced by peer-bench.sh: a ZooKeeper ensemble (or a standalone server) on loopback, one JVM per
# server, run from the bench module's class path and stopped by PID.
#
# Ports for server i (from 1): client B+10(i-1), quorum +1, election +2.

zk_start() { # zk_start N BASE DIR CLASSPATH -> servers up, one leader (or standalone); pids in DIR/zk-I/pid
  local n=$1 b=$2 dir=$3 cp=$4 i p servers=""
  mkdir -p "$dir"
  cat > "$dir/logback.xml" <<'XML'
<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>${zookeeper.log.dir}/zookeeper.log</file>
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{24} - %msg%n</pattern></encoder>
  </appender>
  <root level="WARN"><appender-ref ref="FILE"/></root>
</configuration>
XML
  if [ "$n" -gt 1 ]; then
    for i in $(seq 1 "$n"); do
      p=$((b + 10 * (i - 1)))
      servers+="server.$i=127.0.0.1:$((p + 1)):$((p + 2))"$'\n'
    done
  fi
  for i in $(seq 1 "$n"); do
    p=$((b + 10 * (i - 1)))
    mkdir -p "$dir/zk-$i/data"
    echo "$i" > "$dir/zk-$i/data/myid"
    cat > "$dir/zk-$i/zoo.cfg" <<CFG
tickTime=2000
initLimit=10
syncLimit=5
dataDir=$dir/zk-$i/data
clientPort=$p
clientPortAddress=127.0.0.1
maxClientCnxns=0
forceSync=yes
admin.enableServer=false
4lw.commands.whitelist=srvr
${servers}
CFG
    (cd "$dir/zk-$i" && exec java -Xms512m -Xmx512m -Dzookeeper.log.dir="$dir/zk-$i" \
        -Dlogback.configurationFile="$dir/logback.xml" -cp "$cp" \
        org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zk-$i/zoo.cfg" > "$dir/zk-$i/out" 2>&1) &
    echo $! > "$dir/zk-$i/pid"
  done
  local deadline=$((SECONDS + 90)) modes
  while :; do
    modes=""
    for i in $(seq 1 "$n"); do
      kill -0 "$(cat "$dir/zk-$i/pid")" 2>/dev/null || { echo "ZooKeeper server $i exited; see $dir/zk-$i/out and zookeeper.log" >&2; tail -n 20 "$dir/zk-$i/out" >&2; return 1; }
      modes+="$(zk_mode $((b + 10 * (i - 1)))) "
    done
    if [[ $modes =~ (leader|standalone) ]] && ! [[ $modes =~ none ]]; then break; fi
    [ $SECONDS -lt $deadline ] || { echo "ZooKeeper not serving after 90 s (modes: $modes); see $dir/zk-*/" >&2; return 1; }
    sleep 0.3
  done
  echo "ZooKeeper: $n server(s) up, modes: $modes"
}

zk_mode() { # zk_mode PORT -> leader | follower | standalone | none
  local m
  m=$(timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 && printf srvr >&3 && cat <&3" 2>/dev/null | sed -n 's/^Mode: //p') || true
  echo "${m:-none}"
}

zk_pids() { pidfile_list "$1" zk; } # zk_pids DIR -> comma list
zk_stop() { pidfile_stop "$1" zk; } # zk_stop DIR: each server by its PID
