package dev.tether.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Something that happened to a child.
 *
 * @param type what happened
 * @param child the child just after it
 * @param exit the exit, for {@link Type#EXITED} and {@link Type#STOPPED}; else
 * {@code null}
 * @param spawnDuration how long the spawn took, for {@link Type#STARTED} and for a
 * {@link Type#FAILED} spawn; else {@code null}
 * @param error why, for {@link Type#FAILED}, and for the {@link Type#EXITED} and
 * {@link Type#RESTARTING} that follow a failed health check (liveness, memory); else
 * {@code null}
 * @param stopOutcome how the stop ended, for {@link Type#STOPPED}; else {@code null}
 * @param restartDelay the backoff before the restart, for {@link Type#RESTARTING}; else
 * {@code null}
 */
public record ChildEvent(Type type, ChildSnapshot child, @Nullable ExitStatus exit, @Nullable Duration spawnDuration,
		@Nullable String error, @Nullable StopOutcome stopOutcome, @Nullable Duration restartDelay) {

	/** The kinds of event. */
	public enum Type {

		/** A process was spawned for the child. */
		STARTED,

		/** Its process exited on its own. */
		EXITED,

		/** A restart is scheduled after its backoff. */
		RESTARTING,

		/** It is {@code FAILED}: the breaker opened, or a start or stop failed. */
		FAILED,

		/** It was stopped on request. */
		STOPPED,

		/** It was removed from the supervisor, after its stop; no event of it follows. */
		REMOVED

	}

}
