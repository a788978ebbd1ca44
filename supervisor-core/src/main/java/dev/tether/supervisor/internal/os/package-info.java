/**
 * The native calls, Linux only, with their errors turned into values. jnr-posix serves the calls it covers well
 * ({@code kill}, {@code waitpid}, {@code strerror}); a direct jnr-ffi binding serves what it lacks or loses:
 * {@code posix_spawnp} with its file actions and errno, the pidfd system calls and epoll.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any release.
 */
@NullMarked
package dev.tether.supervisor.internal.os;

import org.jspecify.annotations.NullMarked;
