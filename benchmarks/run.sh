#!/bin/sh
# Runs the benchmarks: Tether next to ProcessBuilder, commons-exec, zt-exec, NuProcess and posix_spawn in C, and
# what capturing children's output costs.
#   benchmarks/run.sh [rounds] [long-n] [short-n] [memory-n] [latency-n]      (defaults: 3 500 500 1000 100)
# Prints a markdown report on stdout. ONLY=word,word runs only the phases whose names hold one of the words
# (e.g. ONLY=reconciliation,autostart benchmarks/run.sh 5; ONLY=output benchmarks/run.sh 3 for the output rows;
# ONLY="socket activation" benchmarks/run.sh 1 for the restart rows).
# WARMUP=n runs n rounds first without counting them, so that the JIT's first compilations fall outside the figures.
# JAVA_OPTS="..." adds options to the benchmark JVM (e.g. -Xint, or -XX:+UnlockDiagnosticVMOptions -XX:+CITime).
# NATIVE=jnr on JDK 22+ runs Tether on jnr instead of FFM, to compare the two backends on one JDK: supervisor-core's
# classes then come from its directory, where the JDK applies no multi-release entry. NUPROCESS_JAR=<jar> puts that
# NuProcess jar in place of the pinned one (and of JNA), for a NuProcess release Maven Central does not serve.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/mvnw" -q -B -Pbenchmarks -pl benchmarks -am package -DskipTests >&2
"${CC:-cc}" -O2 -o "$work/spawn-limit" "$root/benchmarks/src/main/c/spawn-limit.c"
"${CC:-cc}" -O2 -o "$work/line-writer" "$root/benchmarks/src/main/c/line-writer.c"
"${CC:-cc}" -O2 -o "$work/rotating-cat" "$root/benchmarks/src/main/c/rotating-cat.c"
"${CC:-cc}" -O2 -o "$work/http-ok" "$root/benchmarks/src/main/c/http-ok.c"
"${CC:-cc}" -O2 -o "$work/mcp-echo" "$root/benchmarks/src/main/c/mcp-echo.c"
"${CC:-cc}" -O2 -o "$work/proc-floor" "$root/benchmarks/src/main/c/proc-floor.c"
"${CC:-cc}" -O2 -o "$work/notify-beat" "$root/benchmarks/src/main/c/notify-beat.c"
"${CC:-cc}" -O2 -o "$work/line-server" "$root/benchmarks/src/main/c/line-server.c"
classpath="$root/benchmarks/target/classes"
[ "${NATIVE:-}" = jnr ] && classpath="$classpath:$root/supervisor-core/target/classes"
for jar in "$root"/benchmarks/target/lib/*.jar; do
  case $jar in
    */supervisor-core-*-tests.jar) ;;
    */supervisor-core-*) [ "${NATIVE:-}" = jnr ] && continue ;;
    */nuprocess-*|*/jna-*) [ -n "${NUPROCESS_JAR:-}" ] && continue ;;
  esac
  classpath="$classpath:$jar"
done
[ -n "${NUPROCESS_JAR:-}" ] && classpath="$classpath:$NUPROCESS_JAR"
# Why no exec: the shell stays to run its trap, which removes the work directory (launcher copies, binaries).
# shellcheck disable=SC2086 # Why unquoted: JAVA_OPTS holds several options.
java ${JAVA_OPTS:-} -Dbenchmarks.only="${ONLY:-}" -Dbenchmarks.warmup="${WARMUP:-0}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Xms512m -Xmx512m -XX:+AlwaysPreTouch -cp "$classpath" \
  dev.tether.benchmarks.Benchmarks "$work/spawn-limit" "$work" "$@"
