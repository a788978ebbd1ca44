package dev.tether.supervisor;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A child as it stands at one moment.
 *
 * @param name its name
 * @param kind its kind
 * @param state its state
 * @param pid its command's pid while it has a process (once known, for a child under a
 * shepherd), else {@code null}
 * @param startedAt when its current process was spawned (or adopted), else {@code null}
 * @param uptimeSeconds seconds since then, else 0
 * @param restarts how often it was restarted by its policy
 * @param port its declared port, or {@code null}
 * @param lastExit how its last process ended, or {@code null}
 * @param lastError why the last start or stop failed, or {@code null}
 * @param adopted whether the process was adopted from a previous run (not our child: its
 * exit status is unknown)
 * @param shepherdPid the pid of the shepherd the command runs under (the process Tether
 * waits for and signals), or {@code null} without one
 * @param readiness the last readiness check of its current process, or {@code null}
 * @param liveness the last liveness probe of its current process, or {@code null}
 * @param critical whether its {@code FAILED} state turns the supervisor's health
 * {@code DOWN}
 * @param notifyStatus what its current process said over its notify socket, or
 * {@code null} without one (see {@link SelfReport})
 * @param socketActivation the listening socket the supervisor holds for it, or
 * {@code null} when it holds none (see {@link SocketActivation})
 */
public record ChildSnapshot(String name, ChildKind kind, ChildState state, @Nullable Long pid,
		@Nullable Instant startedAt, long uptimeSeconds, int restarts, @Nullable Integer port,
		@Nullable ExitStatus lastExit, @Nullable String lastError, boolean adopted, @Nullable Long shepherdPid,
		@Nullable ProbeResult readiness, @Nullable ProbeResult liveness, boolean critical,
		@Nullable NotifyStatus notifyStatus, @Nullable HeldSocket socketActivation) {

	/** Its last {@code STATUS=} over the notify protocol, or {@code null}. */
	public @Nullable String statusText() {
		return (this.notifyStatus != null) ? this.notifyStatus.statusText() : null;
	}

}
