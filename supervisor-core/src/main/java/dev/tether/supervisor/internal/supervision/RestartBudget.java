package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.Backoff;
import dev.tether.supervisor.ChildSpec;

/**
 * How soon, and whether, a child may be restarted: exponential backoff with jitter, a
 * breaker that allows at most {@code max-restarts} restarts within
 * {@code restart-window}, and a reset of both after {@code stable-after} of uptime; and
 * the child's total of restarts. Pure: the caller passes the time and the random draw, so
 * it is tested without processes or clocks.
 */
final class RestartBudget {

	private final Backoff backoff;

	private final int maxRestarts;

	private final long windowNanos;

	private final long stableAfterNanos;

	private final Deque<Long> restartTimes = new ArrayDeque<>();

	private int failureStreak;

	private int restarts;

	private long dueNanos;

	RestartBudget(ChildSpec spec) {
		this.backoff = spec.backoff();
		this.maxRestarts = spec.maxRestarts();
		this.windowNanos = spec.restartWindow().toNanos();
		this.stableAfterNanos = spec.stableAfter().toNanos();
	}

	/**
	 * The delay before the next restart, or {@code null} when the breaker is open (as
	 * many restarts as the window allows have happened within it).
	 * @param nowNanos the time of the exit
	 * @param random a draw in {@code [0, 1)} that spreads the delay by the jitter
	 */
	@Nullable Duration nextDelay(long nowNanos, double random) {
		while (!this.restartTimes.isEmpty() && nowNanos - this.restartTimes.peekFirst() > this.windowNanos) {
			this.restartTimes.removeFirst();
		}
		if (this.restartTimes.size() >= this.maxRestarts) {
			return null;
		}
		long base = this.backoff.delay(this.failureStreak).toMillis();
		double spread = this.backoff.jitter() * (2 * random - 1);
		this.failureStreak++;
		Duration delay = Duration.ofMillis(Math.max(1, Math.round(base * (1 + spread))));
		this.dueNanos = nowNanos + delay.toNanos();
		return delay;
	}

	/**
	 * Whether the delay given by the last {@link #nextDelay} has passed at
	 * {@code nowNanos}.
	 */
	boolean due(long nowNanos) {
		return nowNanos - this.dueNanos >= 0;
	}

	/**
	 * Counts a restart that happened at {@code nowNanos} against the window, and in the
	 * child's total.
	 */
	void restarted(long nowNanos) {
		this.restartTimes.addLast(nowNanos);
		this.restarts++;
	}

	/**
	 * The restarts made by the restart policy over the child's life (across runs, for an
	 * adopted child).
	 */
	int restarts() {
		return this.restarts;
	}

	/** Takes over the total of the previous run whose orphan was adopted. */
	void adopted(int restarts) {
		this.restarts = restarts;
	}

	/** Restarts counted in the window as of the last {@link #nextDelay}. */
	int restartsInWindow() {
		return this.restartTimes.size();
	}

	/** Whether the breaker allows one more restart at {@code nowNanos}. */
	boolean allowsRestart(long nowNanos) {
		while (!this.restartTimes.isEmpty() && nowNanos - this.restartTimes.peekFirst() > this.windowNanos) {
			this.restartTimes.removeFirst();
		}
		return this.restartTimes.size() < this.maxRestarts;
	}

	/** Resets backoff and breaker once a process has been up for {@code stable-after}. */
	void checkStable(long startedNanos, long nowNanos) {
		if (this.failureStreak > 0 && nowNanos - startedNanos >= this.stableAfterNanos) {
			reset();
		}
	}

	/** Forgets every failure (an operator start). */
	void reset() {
		this.failureStreak = 0;
		this.restartTimes.clear();
	}

}
