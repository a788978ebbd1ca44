#!/bin/sh
# Compiles the parent-death launcher as a static binary: build-launcher.sh <source.c> <output-binary>
set -eu
src="$1"
out="$2"
cc="${CC:-cc}"
mkdir -p "$(dirname "$out")"
if [ "$out" -nt "$src" ]; then
  exit 0
fi
# Why static: the launcher must run whatever libc the target machine has.
"$cc" -static -Os -s -Wall -Werror -o "$out" "$src" || {
  echo "build-launcher: static link failed, linking dynamically" >&2
  "$cc" -Os -s -Wall -Werror -o "$out" "$src"
}
