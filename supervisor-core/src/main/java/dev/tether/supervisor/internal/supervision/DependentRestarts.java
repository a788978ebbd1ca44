package dev.tether.supervisor.internal.supervision;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.StopOutcome;

/**
 * {@code restart-with-dependencies}: when a process of a child ends, each child that
 * depends on it and asked for it is stopped through its ladder, then wants a launch,
 * which waits (as any dependent's does) until all it depends on is {@code RUNNING} again.
 * A chain follows: the stopped dependent's own end is one more ending. Why not by
 * default: most dependents reconnect on their own, and a restart costs them their state.
 */
final class DependentRestarts {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	DependentRestarts(ChildTable children, StopTargets targets, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	/** A process of {@code dependency} ended; call it holding the supervisor's lock. */
	void ended(SupervisedChild dependency) {
		this.children.assertHeld();
		if (this.children.closing()) {
			return;
		}
		for (String name : this.children.dependents(dependency.name())) {
			SupervisedChild dependent = this.children.require(name);
			ChildProcess process = dependent.process();
			if (!dependent.spec().restartWithDependencies() || process == null
					|| dependent.state() == ChildState.STOPPING) {
				continue;
			}
			logger.info("Child '{}' restarts with '{}', which it depends on", name, dependency.name());
			CompletableFuture<StopOutcome> stopped = dependent.beginStop(this.targets.of(dependent, process),
					this.clock.getAsLong());
			stopped.thenRun(() -> restart(dependent));
		}
	}

	// Why it takes the lock: the stop completes wherever its end is seen, and a start is
	// a transition.
	private void restart(SupervisedChild dependent) {
		synchronized (this.children) {
			if (this.children.closing() || this.children.find(dependent.name()) != dependent) {
				return;
			}
			try {
				dependent.requestStart();
			}
			catch (IllegalArgumentException ex) {
				// It is being removed: its stop was its last transition, and it stays
				// stopped.
			}
		}
	}

}
