#!/bin/sh
# Compiles the parent-death launcher (every .c file of its directory) as a static binary:
#   build-launcher.sh <source-directory> <output-binary>
#
# On x86_64 and aarch64 it is built without a libc (TETHER_NOLIBC, see tether-sys.c): its own entry point and raw
# system calls, with nothing but the C compiler. Why: a shepherd lives as long as its child, one per child, and a
# static glibc makes each one more than twice the size (its writable data, heap and their page tables).
# On any other architecture the same sources are linked against the libc, their system calls made through
# syscall(): a working launcher, only a larger one.
set -eu
src="$1"
out="$2"
cc="${CC:-cc}"
mkdir -p "$(dirname "$out")"
if [ -e "$out" ] && [ -z "$(find "$src" -newer "$out" \( -name '*.c' -o -name '*.h' -o -name '*.sh' \))" ]; then
  exit 0
fi
warnings="-Wall -Werror"
case "$("$cc" -dumpmachine)" in
  x86_64-*linux*|aarch64-*linux*)
    # Why these flags: no libc, start files or stack protector to link against; no position independence, so
    # nothing to relocate at start; and no loop turned into a call of the memset being defined.
    "$cc" -DTETHER_NOLIBC -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie \
      -fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables -ffunction-sections -fdata-sections \
      -Os -s -Wl,--gc-sections -Wl,--build-id=none -Wl,-z,noexecstack $warnings -o "$out" "$src"/*.c
    ;;
  *)
    # Why static: the launcher must run whatever libc the target machine has.
    "$cc" -static -Os -s $warnings -o "$out" "$src"/*.c || {
      echo "build-launcher: static link failed, linking dynamically" >&2
      "$cc" -Os -s $warnings -o "$out" "$src"/*.c
    }
    ;;
esac
