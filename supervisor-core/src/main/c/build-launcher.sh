#!/bin/sh
# Compiles the parent-death launcher (every .c file of its directory) as a static binary:
#   build-launcher.sh <source-directory> <output-binary>
set -eu
src="$1"
out="$2"
cc="${CC:-cc}"
mkdir -p "$(dirname "$out")"
if [ -e "$out" ] && [ -z "$(find "$src" -newer "$out" \( -name '*.c' -o -name '*.h' \))" ]; then
  exit 0
fi
# Why static: the launcher must run whatever libc the target machine has.
"$cc" -static -Os -s -Wall -Werror -o "$out" "$src"/*.c || {
  echo "build-launcher: static link failed, linking dynamically" >&2
  "$cc" -Os -s -Wall -Werror -o "$out" "$src"/*.c
}
