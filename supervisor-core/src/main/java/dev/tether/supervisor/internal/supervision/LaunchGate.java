package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.stop.StopLadder;

/**
 * Whether a child wants a new process, and whether one may be spawned now: a launch is
 * wanted (a start, a due restart), claimed by one launcher at a time
 * ({@link LaunchDispatcher}), and held back while an orphan of ours is stopped to free
 * the child's port ({@link PortReclaim}). Guarded, like the child that owns it, by the
 * supervisor's lock.
 */
final class LaunchGate {

	// Why a few seconds: a process's threads exit one after the other, and on a loaded
	// machine its last may take that long to run.
	static final Duration SOCKET_CLOSE_GRACE = Duration.ofSeconds(5);

	private boolean wanted;

	private boolean inFlight;

	private @Nullable PortReclaim portReclaim;

	private long reclaimEndedNanos;

	private boolean reclaimEnded;

	boolean wanted() {
		return this.wanted;
	}

	void want() {
		this.wanted = true;
	}

	/** No launch is wanted any more: one happened, failed, or a stop came. */
	void drop() {
		this.wanted = false;
	}

	/** Takes the launch if one is wanted and none is under way (nor a port reclaim). */
	boolean claim() {
		if (!this.wanted || this.inFlight || this.portReclaim != null) {
			return false;
		}
		this.inFlight = true;
		return true;
	}

	/**
	 * Whether the launch {@link #claim() claimed} is still wanted (no stop came
	 * meanwhile).
	 */
	boolean stillWanted() {
		this.inFlight = false;
		return this.wanted;
	}

	/**
	 * Begins stopping {@code holder}, an orphan of ours that holds {@code port}; the
	 * launch waits for that stop.
	 * @param stops how an orphan of ours is stopped
	 */
	void reclaim(String child, @Nullable Integer port, ExpectedIdentity holder,
			Function<ExpectedIdentity, StopLadder.Request> stops, long nowNanos) {
		this.portReclaim = PortReclaim.begin(child, port, holder, stops, nowNanos);
	}

	/**
	 * Moves a port reclaim on.
	 * @return why the wanted launch must fail (the orphan could not be stopped), or
	 * {@code null}
	 */
	@Nullable String advanceReclaim(long nowNanos) {
		PortReclaim reclaim = this.portReclaim;
		String failure = (reclaim != null) ? reclaim.advance(nowNanos) : null;
		if (reclaim == null || !reclaim.over()) {
			return null;
		}
		this.portReclaim = null;
		this.reclaimEnded = true;
		this.reclaimEndedNanos = nowNanos;
		return this.wanted ? failure : null;
	}

	/**
	 * Whether a port reclaim ended less than {@link #SOCKET_CLOSE_GRACE} ago: a listener
	 * that cannot be identified is then taken for the orphan's socket, still closing.
	 */
	boolean justReclaimed(long nowNanos) {
		return this.reclaimEnded && nowNanos - this.reclaimEndedNanos < SOCKET_CLOSE_GRACE.toNanos();
	}

}
