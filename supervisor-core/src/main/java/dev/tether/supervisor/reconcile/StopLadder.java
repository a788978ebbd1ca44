package dev.tether.supervisor.reconcile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.identity.ExpectedIdentity;
import dev.tether.supervisor.identity.IdentityProbe;
import dev.tether.supervisor.identity.ProcessSignaller;
import dev.tether.supervisor.identity.Verdict;

/**
 * Stops processes that are not our children (orphans of a previous run, or a port holder of ours): their exit
 * cannot be collected, so their end is watched through {@code /proc}. Each process is verified before each signal.
 */
public final class StopLadder {

	private static final int SIGKILL = 9;

	private static final Duration KILL_GRACE = Duration.ofSeconds(5);

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private final ProcessSignaller signaller;

	public StopLadder(ProcessSignaller signaller) {
		this.signaller = signaller;
	}

	/**
	 * Sends every target its stop signal (to its group when it leads one), waits up to the longest timeout, kills
	 * what is left, and waits for that.
	 * @return one outcome per target, in order
	 */
	public List<StopOutcome> stop(List<Target> targets) {
		List<StopOutcome> outcomes = new ArrayList<>();
		long deadline = System.nanoTime();
		for (Target target : targets) {
			Verdict verdict = this.signaller.signalGroup(target.identity(), target.signal());
			outcomes.add(switch (verdict) {
				case OURS -> null;
				case GONE -> StopOutcome.EXITED;
				case NOT_OURS, UNVERIFIABLE -> StopOutcome.NOT_OURS;
			});
			deadline = Math.max(deadline, System.nanoTime() + target.timeout().toNanos());
		}
		awaitGone(targets, outcomes, deadline, StopOutcome.EXITED);
		for (int i = 0; i < targets.size(); i++) {
			if (outcomes.get(i) == null) {
				this.signaller.signalGroup(targets.get(i).identity(), SIGKILL);
			}
		}
		awaitGone(targets, outcomes, System.nanoTime() + KILL_GRACE.toNanos(), StopOutcome.KILLED);
		outcomes.replaceAll((outcome) -> (outcome != null) ? outcome : StopOutcome.SURVIVED);
		return outcomes;
	}

	private void awaitGone(List<Target> targets, List<StopOutcome> outcomes, long deadline, StopOutcome whenGone) {
		IdentityProbe probe = this.signaller.probe();
		while (true) {
			boolean pending = false;
			for (int i = 0; i < targets.size(); i++) {
				if (outcomes.get(i) == null) {
					if (probe.verify(targets.get(i).identity()) == Verdict.GONE) {
						outcomes.set(i, whenGone);
					}
					else {
						pending = true;
					}
				}
			}
			if (!pending || System.nanoTime() >= deadline) {
				return;
			}
			LockSupport.parkNanos(POLL_NANOS);
		}
	}

	/**
	 * A process to stop.
	 *
	 * @param identity what it must be
	 * @param signal its stop signal
	 * @param timeout how long it may take
	 */
	public record Target(ExpectedIdentity identity, int signal, Duration timeout) {
	}

}
