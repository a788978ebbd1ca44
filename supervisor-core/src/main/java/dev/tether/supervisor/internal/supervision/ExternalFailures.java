package dev.tether.supervisor.internal.supervision;

import java.time.Instant;
import java.util.function.LongSupplier;

import dev.tether.supervisor.ChildState;

/**
 * Restarts a running process that something outside the supervision found broken (an MCP
 * session that ended while its server runs on), through the stop ladder and counted by
 * the restart policy as a failed liveness probe is
 * ({@link dev.tether.supervisor.Supervisor#restartFailed}).
 */
final class ExternalFailures {

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	ExternalFailures(ChildTable children, StopTargets targets, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	boolean restartFailed(String name, Instant startedAt, String reason) {
		synchronized (this.children) {
			SupervisedChild child = this.children.require(name);
			ChildProcess process = child.process();
			// Why the start time: the report is about one process; a restart since then
			// already replaced it, and the new one is not to be blamed.
			boolean restarting = process != null && child.state() == ChildState.RUNNING
					&& startedAt.equals(process.startedAt());
			if (restarting) {
				child.checkFailed(process, reason, this.targets.of(child, process), this.clock.getAsLong());
			}
			return restarting;
		}
	}

}
