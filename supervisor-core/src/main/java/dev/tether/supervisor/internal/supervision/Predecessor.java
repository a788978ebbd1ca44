package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.stop.Stop;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * The process a rolling restart replaces ({@code restart-mode: rolling}): it goes on
 * accepting from the child's socket while the new process starts, and is stopped through
 * its ladder once the new one is ready, or takes the child back if the new one fails.
 * Guarded by the children's lock, as the child that holds it.
 */
final class Predecessor {

	private final ChildProcess process;

	private final ShepherdedCommand command;

	private final StopTarget target;

	private @Nullable Stop stop;

	private final CompletableFuture<Void> gone = new CompletableFuture<>();

	Predecessor(ChildProcess process, ShepherdedCommand command, StopTarget target) {
		this.process = process;
		this.command = command;
		this.target = target;
	}

	ChildProcess process() {
		return this.process;
	}

	ShepherdedCommand command() {
		return this.command;
	}

	StopTarget target() {
		return this.target;
	}

	/**
	 * Completed once it is no longer the child's predecessor: ended, left alone, or the
	 * child's process again.
	 */
	CompletableFuture<Void> gone() {
		return this.gone;
	}

	/** Its stop ladder, once begun. */
	@Nullable Stop stop() {
		return this.stop;
	}

	/** Whether its stop has begun: it no longer takes the child back. */
	boolean stopping() {
		return this.stop != null;
	}

	/** Begins its stop ladder, once. */
	void stop(int stopSignal, Duration stopTimeout, long nowNanos) {
		if (this.stop == null) {
			this.stop = StopLadder.begin(this.target, stopSignal, stopTimeout, nowNanos);
		}
	}

	/**
	 * Moves its stop on.
	 * @return {@code SURVIVED} or {@code NOT_OURS} when the stop is over without an exit
	 * to wait for; {@code null} while it goes on or until its reaped exit ends it
	 */
	@Nullable StopOutcome advance(long nowNanos) {
		StopOutcome outcome = (this.stop != null) ? this.stop.advance(nowNanos) : null;
		return (outcome == StopOutcome.SURVIVED || outcome == StopOutcome.NOT_OURS) ? outcome : null;
	}

}
