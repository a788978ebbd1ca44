package dev.tether.supervisor.internal.supervision;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ExitStatus;

/**
 * What a child's restart rules make of one exit of its process: {@code FAILED} with a
 * reason (an exit in {@code restart-prevent-exit-codes}, or the breaker open), a restart
 * after a delay, or nothing (its policy does not restart after this exit).
 *
 * @param failure why the child is now {@code FAILED}, or {@code null}
 * @param restartDelay how long until it restarts, or {@code null} when it does not
 */
record AfterExit(@Nullable String failure, @Nullable Duration restartDelay) {

	private static final AfterExit STAYS_EXITED = new AfterExit(null, null);

	/**
	 * @param exitedByItself whether the process ended on its own, rather than stopped for
	 * a failed check or a startup timeout (which always count as failures)
	 * @param random a draw in {@code [0, 1)} for the backoff's jitter
	 */
	static AfterExit decide(ChildSpec spec, RestartBudget budget, ExitStatus status, boolean exitedByItself,
			long nowNanos, double random) {
		if (exitedByItself && spec.restartPreventExitCodes().matches(status)) {
			return new AfterExit("not restarted: its exit (" + status + ") is one of restart-prevent-exit-codes", null);
		}
		boolean failed = !exitedByItself || !(status.isClean() || spec.successExitCodes().matches(status));
		if (!spec.restart().restartsAfter(failed)) {
			return STAYS_EXITED;
		}
		Duration delay = budget.nextDelay(nowNanos, random);
		if (delay == null) {
			return new AfterExit("restarted " + budget.restartsInWindow() + " times within " + spec.restartWindow()
					+ "; last " + status, null);
		}
		return new AfterExit(null, delay);
	}

}
