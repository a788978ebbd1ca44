package dev.tether.supervisor.internal.identity;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildKind;

/**
 * What a process must be for us to call it ours.
 *
 * @param pid the process id
 * @param owner the supervisor that spawned it
 * @param kind its kind (decides the name variable)
 * @param name its child name
 * @param startTime its start time in clock ticks ({@code /proc/<pid>/stat} field 22), or
 * {@code null} when not recorded
 * @param bootId the boot id when it was recorded, or {@code null}
 */
public record ExpectedIdentity(long pid, Owner owner, ChildKind kind, String name, @Nullable Long startTime,
		@Nullable String bootId) {
}
