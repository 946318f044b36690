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
    (cd "$nacre_root" && mvn -B -q -DskipTests package >&2)
  fi
}
