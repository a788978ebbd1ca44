#!/bin/sh
# Runs the benchmarks: Tether next to ProcessBuilder, commons-exec, zt-exec, NuProcess and posix_spawn in C, and
# what capturing children's output costs.
#   benchmarks/run.sh [rounds] [long-n] [short-n] [memory-n] [latency-n]      (defaults: 3 500 500 1000 100)
# Prints a markdown report on stdout. ONLY=word,word runs only the phases whose names hold one of the words
# (e.g. ONLY=reconciliation,autostart benchmarks/run.sh 5; ONLY=output benchmarks/run.sh 3 for the output rows).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/mvnw" -q -B -Pbenchmarks -pl benchmarks -am package -DskipTests >&2
"${CC:-cc}" -O2 -o "$work/spawn-limit" "$root/benchmarks/src/main/c/spawn-limit.c"
"${CC:-cc}" -O2 -o "$work/line-writer" "$root/benchmarks/src/main/c/line-writer.c"
"${CC:-cc}" -O2 -o "$work/http-ok" "$root/benchmarks/src/main/c/http-ok.c"
"${CC:-cc}" -O2 -o "$work/mcp-echo" "$root/benchmarks/src/main/c/mcp-echo.c"
# Why no exec: the shell stays to run its trap, which removes the work directory (launcher copies, binaries).
java -Dbenchmarks.only="${ONLY:-}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Xms512m -Xmx512m -XX:+AlwaysPreTouch -cp "$root/benchmarks/target/classes:$root/benchmarks/target/lib/*" \
  dev.tether.benchmarks.Benchmarks "$work/spawn-limit" "$work" "$@"
