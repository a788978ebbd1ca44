package dev.tether.supervisor.registry;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One persisted child: enough to find it again after the JVM died, and to prove it is
 * still the same process.
 *
 * @param name the child's name
 * @param kind {@code agent} or {@code mcp}
 * @param installationId the installation that spawned it
 * @param pid its pid
 * @param pgid its process group
 * @param startTime its start time in clock ticks ({@code /proc/<pid>/stat} field 22), or
 * {@code null}
 * @param bootId the boot id when it was spawned, or {@code null}
 * @param state its state when written
 * @param spawnedAt when it was spawned
 * @param restarts how often it had been restarted
 * @param port its declared port, or {@code null}
 */
public record RegistryRow(String name, String kind, String installationId, long pid, long pgid,
		@Nullable Long startTime, @Nullable String bootId, String state, @Nullable Instant spawnedAt, int restarts,
		@Nullable Integer port) {
}
