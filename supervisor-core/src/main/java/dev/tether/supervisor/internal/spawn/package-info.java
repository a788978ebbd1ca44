/**
 * Spawning children, every one from a single long-lived thread, because the kernel's
 * parent-death signal follows the thread that forked the child. The native launcher (or
 * {@code setpriv}) arms that signal between fork and exec; executables are resolved
 * before anything is spawned, so an error names them.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.spawn;

import org.jspecify.annotations.NullMarked;
