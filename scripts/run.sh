#!/usr/bin/env bash
# Builds Nacre when the sources are newer than the jar, then runs one node in the foreground.
# Flags go to the node (see --help); conf/nacre.properties is read when present.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=node/target/nacre-node.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml ./*/pom.xml ./*/src -newer "$jar" -print -quit)" ]; then
  echo "Building Nacre (first build downloads dependencies, about a minute)..." >&2
  mvn -B -q -DskipTests package >&2
fi
args=()
if [ -f conf/nacre.properties ]; then
  args+=(--config conf/nacre.properties)
fi
exec java ${JAVA_OPTS:-} -jar "$jar" "${args[@]}" "$@"
