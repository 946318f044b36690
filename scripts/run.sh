#!/usr/bin/env bash
# Builds Nacre when the sources are newer than the jar, then runs one node in the foreground.
# Flags go to the node (see --help); conf/nacre.properties is read when present.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
nacre_ensure_built
args=()
if [ -f "$nacre_root/conf/nacre.properties" ]; then
  args+=(--config "$nacre_root/conf/nacre.properties")
fi
if [ -f "$nacre_root/conf/cluster.conf" ]; then
  args+=(--cluster-conf "$nacre_root/conf/cluster.conf")
fi
cd "$nacre_root"
exec java ${JAVA_OPTS:-} $nacre_jit_opts $nacre_native_opts $(nacre_cds_opts) -jar "$nacre_jar" "${args[@]}" "$@"
