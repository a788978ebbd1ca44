/**
 * The native calls, Linux only, with their errors turned into values.
 * {@link dev.tether.supervisor.internal.os.Posix},
 * {@link dev.tether.supervisor.internal.os.PosixSpawn} and
 * {@link dev.tether.supervisor.internal.os.Epoll} say what Tether does; one native
 * backend per JVM makes the calls: the Foreign Function and Memory API on JDK 22 and
 * later ({@code FfmCalls}, multi-release classes of the jar, so that nothing loads jnr's
 * native layer, which JDK 24+ warns about), jnr on JDK 17 to 21 (jnr-posix where it
 * serves well, a direct jnr-ffi binding for what it lacks or loses: {@code posix_spawnp}
 * with its file actions and errno, the pidfd system calls and epoll).
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.os;

import org.jspecify.annotations.NullMarked;
