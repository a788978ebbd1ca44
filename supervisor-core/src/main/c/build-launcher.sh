#!/bin/sh
# Compiles the parent-death launcher (every .c file of its directory) as a static binary for each Linux architecture
# Tether ships, and for the build machine's own:
#   build-launcher.sh <source-directory> <native-directory> <os.arch> [required architectures]
# writing <native-directory>/linux-<arch>/tether-launcher, where <arch> is the JDK's os.arch name of that machine
# (amd64, aarch64), the name ParentDeath looks up at run time.
#
# The machine's own architecture is built with ${CC:-cc}; amd64 and aarch64, when they are not the machine's, with
# Debian's cross compilers (x86_64-linux-gnu-gcc, aarch64-linux-gnu-gcc) where they are installed. An architecture
# without a compiler is left out and the log says so, unless it is one of the required architectures (the release
# profile requires both): then the build fails.
#
# On x86_64 and aarch64 it is built without a libc (TETHER_NOLIBC, see tether-sys.c): its own entry point and raw
# system calls, with nothing but the C compiler. Why: a shepherd lives as long as its child, one per child, and a
# static glibc makes each one more than twice the size (its writable data, heap and their page tables).
# On any other architecture the same sources are linked against the libc, their system calls made through
# syscall(): a working launcher, only a larger one.
set -eu
src="$1"
native="$2"
os_arch="$3"
required="${4:-}"
warnings="-Wall -Werror"

build() {
  cc="$1"
  out="$2"
  mkdir -p "$(dirname "$out")"
  if [ -e "$out" ] && [ -z "$(find "$src" -newer "$out" \( -name '*.c' -o -name '*.h' -o -name '*.sh' \))" ]; then
    return 0
  fi
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
  echo "build-launcher: $(basename "$(dirname "$out")") built by $cc ($(wc -c < "$out") bytes)"
}

# The JDK's os.arch name of a compiler's target: the directory the launcher goes to.
arch_of() {
  case "$("$1" -dumpmachine)" in
    x86_64-*) echo amd64 ;;
    aarch64-*) echo aarch64 ;;
    *) echo "$os_arch" ;;
  esac
}

host_cc="${CC:-cc}"
host=$(arch_of "$host_cc")
build "$host_cc" "$native/linux-$host/tether-launcher"
for target in amd64:x86_64-linux-gnu-gcc:gcc-x86-64-linux-gnu aarch64:aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu; do
  arch="${target%%:*}"
  package="${target##*:}"
  cross="${target#*:}"
  cross="${cross%:*}"
  [ "$arch" = "$host" ] && continue
  if command -v "$cross" > /dev/null 2>&1; then
    build "$cross" "$native/linux-$arch/tether-launcher"
    continue
  fi
  case " $required " in
    *" $arch "*)
      echo "build-launcher: no $cross: the linux-$arch launcher is required (Debian package $package)" >&2
      exit 1
      ;;
  esac
  # Why remove: a launcher left by an earlier build would be packaged though the log says there is none.
  rm -f "$native/linux-$arch/tether-launcher"
  echo "build-launcher: no $cross, so this jar carries no linux-$arch launcher (Debian package $package)"
done
