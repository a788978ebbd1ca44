package dev.tether.supervisor.internal.supervision;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.stop.Stop;
import dev.tether.supervisor.internal.stop.StopLadder;

/**
 * An orphan of ours that holds a child's port, being stopped through the ladder so that
 * the child can have it. The child's launch waits until the stop is over. Guarded, like
 * its child, by the supervisor's lock.
 */
final class PortReclaim {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final Stop stop;

	private final @Nullable Integer port;

	private PortReclaim(Stop stop, @Nullable Integer port) {
		this.stop = stop;
		this.port = port;
	}

	/**
	 * Begins the stop of {@code holder}.
	 * @param stops how an orphan of ours is stopped
	 */
	static PortReclaim begin(String child, @Nullable Integer port, ExpectedIdentity holder,
			Function<ExpectedIdentity, StopLadder.Request> stops, long nowNanos) {
		logger.warn("Port {} is held by pid {}, an orphan of child '{}'; stopping it", port, holder.pid(), child);
		StopLadder.Request request = stops.apply(holder);
		return new PortReclaim(StopLadder.begin(request.target(), request.signal(), request.timeout(), nowNanos), port);
	}

	/**
	 * Moves the stop on.
	 * @return {@code null} while it runs; once it is over, {@code null} as well when the
	 * orphan is gone, else why the child cannot have its port
	 */
	@Nullable String advance(long nowNanos) {
		StopOutcome outcome = this.stop.advance(nowNanos);
		if (outcome != StopOutcome.SURVIVED && outcome != StopOutcome.NOT_OURS) {
			return null;
		}
		return "port " + this.port + " is held by an orphan of this child that could not be stopped (" + outcome + ")";
	}

	/** Whether the stop is over. */
	boolean over() {
		return this.stop.outcome() != null;
	}

}
