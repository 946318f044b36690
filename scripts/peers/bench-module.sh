# Sourced: builds the bench module (profile bench, not part of the default build) and prints its
# class path (classes first). WORK gets build.log and the dependency list `classpath`.
bench_module_classpath() {
  local work=$1
  if ! (cd "$nacre_root" && mvn -B -o -q -Pbench -pl bench -am package -DskipTests >"$work/build.log" 2>&1); then
    echo "   offline build failed (first run?): resolving the bench module's dependencies online" >&2
    (cd "$nacre_root" && mvn -B -q -Pbench -pl bench -am dependency:resolve >"$work/build.log" 2>&1 \
        && mvn -B -o -q -Pbench -pl bench -am package -DskipTests >>"$work/build.log" 2>&1) \
      || { tail -n 30 "$work/build.log" >&2; return 1; }
  fi
  (cd "$nacre_root/bench" && mvn -B -o -q dependency:build-classpath -Dmdep.outputFile="$work/classpath" >&2)
  echo "$nacre_root/bench/target/classes:$(cat "$work/classpath")"
}
