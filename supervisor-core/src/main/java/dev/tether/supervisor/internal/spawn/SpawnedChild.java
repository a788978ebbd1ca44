package dev.tether.supervisor.internal.spawn;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A child that was spawned.
 *
 * @param pid its pid (also its process group and session on Linux)
 * @param handle the JDK's handle where the child was started by {@link ProcessBuilder}
 * (platforms without the native path), otherwise {@code null}
 * @param duration how long the spawn took, queueing included
 * @param shepherd whether {@code pid} is the command's shepherd rather than the command
 * itself
 * @param stdio the JVM's ends of its stdin and stdout, for a request with {@code stdio};
 * else {@code null}
 */
public record SpawnedChild(long pid, @Nullable ProcessHandle handle, Duration duration, boolean shepherd,
		@Nullable StdioPipes stdio) {

}
