/**
 * Spawning children, every one from a single long-lived thread, because the kernel's
 * parent-death signal follows the thread that forked the child. The native launcher (or
 * {@code setpriv}) arms that signal between fork and exec, whether the child is spawned
 * by {@code posix_spawnp} or, where the JVM makes no native call (not Linux, or native
 * access denied), by {@code ProcessBuilder}: the launcher is a program and needs none;
 * executables are resolved before anything is spawned, so an error names them.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.spawn;

import org.jspecify.annotations.NullMarked;
