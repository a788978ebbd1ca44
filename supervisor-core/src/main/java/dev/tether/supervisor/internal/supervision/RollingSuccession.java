package dev.tether.supervisor.internal.supervision;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * The succession of one child's processes in a rolling restart: which process the new one
 * replaces ({@link Predecessor}), when it is stopped, and an operator's stop that must
 * wait for it to end. Guarded by the children's lock, as the child that holds it; the
 * child's own transitions (the hand-back, the stop) stay with {@link SupervisedChild}.
 */
final class RollingSuccession {

	private static final Logger logger = LoggerFactory.getLogger(RollingSuccession.class);

	private final String name;

	private @Nullable Predecessor predecessor;

	// Why: a stop is complete only once the predecessor has ended too; its outcome waits
	// here until then.
	private @Nullable StopOutcome stopEndedBefore;

	RollingSuccession(String name) {
		this.name = name;
	}

	/**
	 * The process being replaced, or {@code null} when no rolling restart is under way.
	 */
	@Nullable Predecessor predecessor() {
		return this.predecessor;
	}

	/** Whether the process being replaced still serves, so it takes the child back. */
	boolean mayTakeBack() {
		return this.predecessor != null && !this.predecessor.stopping();
	}

	/** Whether {@code pid} is the process being replaced. */
	boolean replaces(long pid) {
		return this.predecessor != null && this.predecessor.process().pid() == pid;
	}

	/**
	 * A rolling restart begins: {@code current} serves until the new process is ready.
	 */
	void begin(ChildProcess current, ShepherdedCommand command, StopTarget target) {
		this.predecessor = new Predecessor(current, command, target);
	}

	/**
	 * The new process is ready, or the child stops: the replaced one is stopped, once.
	 */
	void stopReplaced(ChildSpec spec, long nowNanos) {
		Predecessor previous = this.predecessor;
		if (previous != null && !previous.stopping()) {
			logger.info("Child '{}': stopping pid {}, which the new process replaces", this.name,
					previous.process().pid());
			previous.stop(spec.stopSignal(), spec.stopTimeout(), nowNanos);
		}
	}

	/**
	 * Moves the replaced process's stop on.
	 * @return whether that stop is over without an exit to wait for (it survived
	 * {@code SIGKILL}, or is no longer ours): the child is to forget it
	 */
	boolean advance(long nowNanos) {
		Predecessor previous = this.predecessor;
		StopOutcome outcome = (previous != null) ? previous.advance(nowNanos) : null;
		if (outcome == null) {
			return false;
		}
		logger.error("Child '{}': the replaced pid {} {}", this.name, previous.process().pid(),
				(outcome == StopOutcome.SURVIVED) ? "survived SIGKILL"
						: "could not be verified as ours; not signalled");
		return true;
	}

	/**
	 * Holds back the outcome of a stop while the replaced process runs.
	 * @return whether it was held back, to be returned by {@link #ended}
	 */
	boolean holdsBack(StopOutcome outcome) {
		if (this.predecessor == null) {
			return false;
		}
		this.stopEndedBefore = outcome;
		return true;
	}

	/**
	 * The replaced process ended, or is left alone: the succession is over.
	 * @param how what became of it, for the log
	 * @return the outcome of a stop that waited for it, to complete now, or {@code null}
	 */
	@Nullable StopOutcome ended(String how) {
		Predecessor previous = takeBack();
		if (previous != null) {
			logger.info("Child '{}': the replaced pid {} {}", this.name, previous.process().pid(), how);
		}
		StopOutcome waiting = this.stopEndedBefore;
		this.stopEndedBefore = null;
		return waiting;
	}

	/**
	 * The process being replaced is the child's process again (the new one failed, or a
	 * stop came before it was launched); its {@link Predecessor#gone()} completes.
	 * @return it, or {@code null} without one
	 */
	@Nullable Predecessor takeBack() {
		Predecessor previous = this.predecessor;
		this.predecessor = null;
		if (previous != null) {
			previous.gone().complete(null);
		}
		return previous;
	}

}
