# Shared by the scripts: build the node jar when the sources are newer than it.
nacre_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nacre_jar="$nacre_root/node/target/nacre-node.jar"

nacre_ensure_built() {
  if [ ! -f "$nacre_jar" ] || [ -n "$(cd "$nacre_root" && find pom.xml ./*/pom.xml ./*/src -newer "$nacre_jar" -print -quit)" ]; then
    echo "Building Nacre (the first build downloads dependencies, about a minute)..." >&2
    (cd "$nacre_root" && mvn -B -q -DskipTests package >&2)
  fi
}
