package dev.tether.supervisor.internal.stop;

import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.identity.Verdict;

/**
 * A process that is not our child (an orphan of a previous run, a process we adopted, a
 * port holder of ours): it is verified by its markers, start time and boot id before
 * every signal, and has ended once it is no longer there as that identity.
 *
 * @param identity what it must be
 * @param signaller the one signal path
 */
public record VerifiedProcess(ExpectedIdentity identity, ProcessSignaller signaller) implements StopTarget {

	@Override
	public Verdict signal(int signal) {
		return this.signaller.signalGroup(this.identity, signal);
	}

	@Override
	public boolean hasEnded() {
		Verdict verdict = this.signaller.probe().verify(this.identity);
		return verdict == Verdict.GONE || verdict == Verdict.NOT_OURS;
	}

}
