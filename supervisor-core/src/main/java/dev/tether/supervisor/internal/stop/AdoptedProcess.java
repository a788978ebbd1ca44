package dev.tether.supervisor.internal.stop;

import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.identity.Verdict;

/**
 * A process adopted from a previous run: verified by its markers when it was adopted, and
 * from then on proven by its pid and start time alone, so it is still stopped after it
 * rewrote or cleared its environment. It has ended once its pid no longer names a running
 * process with that start time.
 *
 * @param identity what it was verified as (its start time is required)
 * @param signaller the one signal path
 */
public record AdoptedProcess(ExpectedIdentity identity, ProcessSignaller signaller) implements StopTarget {

	@Override
	public Verdict signal(int signal) {
		return this.signaller.signalAdoptedGroup(this.identity, signal);
	}

	@Override
	public boolean hasEnded() {
		return !this.signaller.probe().isRunning(this.identity.pid(), this.identity.startTime());
	}

}
