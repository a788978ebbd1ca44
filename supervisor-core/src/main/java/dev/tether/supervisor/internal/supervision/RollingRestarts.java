package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.internal.stop.Stop;

/**
 * An operator's restart of a child with {@code restart-mode: rolling}: the new process is
 * launched while the old one serves (see {@link Predecessor}); the tick stops the old one
 * once the new one is ready.
 */
final class RollingRestarts {

	private final ChildTable children;

	private final StopCoordinator stops;

	private final LaunchDispatcher launches;

	private final LongSupplier clock;

	RollingRestarts(ChildTable children, StopCoordinator stops, LaunchDispatcher launches, LongSupplier clock) {
		this.children = children;
		this.stops = stops;
		this.launches = launches;
		this.clock = clock;
	}

	/**
	 * Restarts the child rolling, when it is a rolling child with a running process of
	 * its own; a restart asked while a new process starts already does nothing more.
	 * @return whether the restart is taken care of; {@code false} for a stop-first
	 * restart
	 */
	boolean restart(String name) {
		CompletableFuture<Void> previousGone;
		Duration stopTimeout;
		synchronized (this.children) {
			SupervisedChild child = this.children.require(name);
			if (child.spec().restartMode() != RestartMode.ROLLING) {
				return false;
			}
			Predecessor previous = child.predecessor();
			if (previous != null && !previous.stopping()) {
				return true;
			}
			previousGone = (previous != null) ? previous.gone() : null;
			stopTimeout = child.spec().stopTimeout();
			ChildProcess current = child.process();
			if (previousGone == null) {
				boolean began = current != null
						&& child.beginRolling(this.stops.target(child, current), null, this.clock.getAsLong());
				if (!began) {
					return false;
				}
			}
		}
		if (previousGone != null) {
			// Why wait, holding no lock: the process the last rolling restart replaced is
			// being stopped; its ladder, which the tick moves on, ends it within its stop
			// timeout, and only one predecessor is tracked at a time.
			awaitGone(name, previousGone, stopTimeout);
			return restart(name);
		}
		// Why no wait for readiness here: the old process serves until the new one is
		// ready, and the tick stops it then.
		this.launches.launchWanted();
		return true;
	}

	private static void awaitGone(String name, CompletableFuture<Void> gone, Duration stopTimeout) {
		Duration limit = stopTimeout.plus(Stop.KILL_GRACE.multipliedBy(2));
		try {
			gone.get(limit.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while child '" + name + "' ended a rolling restart", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("child '" + name + "' is not restarted: the process its last rolling "
					+ "restart replaced has not ended within " + limit, ex);
		}
	}

}
