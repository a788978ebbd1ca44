package dev.tether.supervisor.internal.supervision;

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

	private boolean wanted;

	private boolean inFlight;

	private @Nullable PortReclaim portReclaim;

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
		return this.wanted ? failure : null;
	}

}
