package dev.tether.supervisor.identity;

import java.util.Optional;
import java.util.Set;

import dev.tether.supervisor.os.Posix;

/**
 * The only way Tether signals a process: after a verdict {@code OURS}, and through a pidfd where the kernel has one
 * (so the process verified is the process signalled, even if the pid were reused in between).
 */
public final class ProcessSignaller {

	private static final int ESRCH = 3;

	private final IdentityProbe probe;

	private final Posix posix = Posix.get();

	public ProcessSignaller(IdentityProbe probe) {
		this.probe = probe;
	}

	/** The probe every verdict comes from. */
	public IdentityProbe probe() {
		return this.probe;
	}

	/**
	 * Verifies the process and, when it is ours, sends it the signal.
	 * @return the verdict; the signal was sent only when it is {@code OURS}
	 */
	public Verdict signal(ExpectedIdentity identity, int signal) {
		if (!IdentityProbe.signalablePid(identity.pid()) || !this.posix.isAvailable()) {
			return this.probe.verify(identity) == Verdict.GONE ? Verdict.GONE : Verdict.NOT_OURS;
		}
		if (this.posix.isPidfdAvailable()) {
			// Why: the pidfd pins the process before the check; a pid reused after the check cannot be hit.
			int pidfd = this.posix.pidfdOpen(identity.pid());
			if (pidfd == -ESRCH) {
				return Verdict.GONE;
			}
			if (pidfd >= 0) {
				try {
					Verdict verdict = this.probe.verify(identity);
					if (verdict == Verdict.OURS && this.posix.pidfdSendSignal(pidfd, signal) == ESRCH) {
						return Verdict.GONE;
					}
					return verdict;
				}
				finally {
					this.posix.close(pidfd);
				}
			}
			// Why on without a pidfd: any other failure (EMFILE, ENFILE, ENOMEM) says nothing about the process. It
			// is verified and signalled as on a kernel without pidfds: a reuse would also have to change the start
			// time checked just before; reporting it gone would leave a live process of ours behind.
		}
		Verdict verdict = this.probe.verify(identity);
		if (verdict == Verdict.OURS && this.posix.kill(identity.pid(), signal) == ESRCH) {
			return Verdict.GONE;
		}
		return verdict;
	}

	/**
	 * Signals the whole process group led by a verified process. When the process does not lead its own group only
	 * the process itself is signalled.
	 * @return the leader's verdict; the group was signalled only when it is {@code OURS}
	 */
	public Verdict signalGroup(ExpectedIdentity leader, int signal) {
		Verdict verdict = this.probe.verify(leader);
		if (verdict != Verdict.OURS || !this.posix.isAvailable()) {
			return verdict;
		}
		Optional<ProcStat> stat = this.probe.stat(leader.pid());
		if (stat.isEmpty() || stat.get().pgrp() != leader.pid()) {
			return signal(leader, signal);
		}
		return (this.posix.kill(-leader.pid(), signal) == ESRCH) ? Verdict.GONE : Verdict.OURS;
	}

	/**
	 * Signals the members of groups whose leaders are gone: each process carrying this owner's markers in
	 * one of those groups, verified one by one. One {@code /proc} scan serves every group.
	 * @return how many were signalled
	 */
	public int signalGroupRemnants(Owner owner, Set<Long> pgids, int signal) {
		int signalled = 0;
		for (MarkedProcess marked : this.probe.scanMarked(owner)) {
			Optional<ProcStat> stat = this.probe.stat(marked.pid());
			if (stat.isPresent() && pgids.contains(stat.get().pgrp())) {
				ExpectedIdentity identity = new ExpectedIdentity(marked.pid(), owner, marked.kind(),
						marked.name(), stat.get().startTime(), null);
				if (signal(identity, signal) == Verdict.OURS) {
					signalled++;
				}
			}
		}
		return signalled;
	}

}
