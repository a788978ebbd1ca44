package dev.tether.supervisor.internal.identity;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.tether.supervisor.internal.os.Posix;

/**
 * The only way Tether signals a process that is not its unreaped child: after a verdict
 * {@code OURS}, and through a pidfd where the kernel has one, so the process verified is
 * the process signalled even if its pid were reused in between; a group is signalled
 * through the pidfd too ({@code PIDFD_SIGNAL_PROCESS_GROUP}), so it is the group of that
 * very process.
 */
public final class ProcessSignaller {

	private static final int ESRCH = 3;

	private static final int EINVAL = 22;

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
		return send(identity, signal, false, this.probe::verify);
	}

	/**
	 * Signals the whole process group led by a verified process. When the process does
	 * not lead its own group only the process itself is signalled.
	 * @return the leader's verdict; the group was signalled only when it is {@code OURS}
	 */
	public Verdict signalGroup(ExpectedIdentity leader, int signal) {
		return send(leader, signal, true, this.probe::verify);
	}

	/**
	 * Signals the group of a process that was verified as ours when it was adopted: from
	 * then on it is proven by its pid and start time alone (its environment is its own to
	 * rewrite, as {@code setproctitle} does).
	 * @return {@code OURS} when sent, {@code GONE} when that process has ended (even if
	 * its pid names another)
	 */
	public Verdict signalAdoptedGroup(ExpectedIdentity adopted, int signal) {
		return send(adopted, signal, true, this::sameProcess);
	}

	private Verdict sameProcess(ExpectedIdentity adopted) {
		return (adopted.startTime() != null && this.probe.isRunning(adopted.pid(), adopted.startTime())) ? Verdict.OURS
				: Verdict.GONE;
	}

	private Verdict send(ExpectedIdentity identity, int signal, boolean group,
			Function<ExpectedIdentity, Verdict> proof) {
		if (!IdentityProbe.signalablePid(identity.pid()) || !this.posix.isAvailable()) {
			return (proof.apply(identity) == Verdict.GONE) ? Verdict.GONE : Verdict.NOT_OURS;
		}
		// Why the pidfd first: it pins the process before the check, so a pid reused
		// after the check cannot be hit.
		// Any failure but ESRCH (EMFILE, ENFILE, ENOMEM) says nothing about the process:
		// it is then checked and signalled as on a kernel without pidfds, where a reuse
		// would also have to change the start time just read.
		int pidfd = this.posix.isPidfdAvailable() ? this.posix.pidfdOpen(identity.pid()) : -1;
		if (pidfd == -ESRCH) {
			return Verdict.GONE;
		}
		try {
			Verdict verdict = proof.apply(identity);
			if (verdict != Verdict.OURS) {
				return verdict;
			}
			boolean leadsGroup = group
					&& this.probe.stat(identity.pid()).map((stat) -> stat.pgrp() == identity.pid()).orElse(false);
			return (deliver(pidfd, identity.pid(), signal, leadsGroup) == ESRCH) ? Verdict.GONE : Verdict.OURS;
		}
		finally {
			if (pidfd >= 0) {
				this.posix.close(pidfd);
			}
		}
	}

	private int deliver(int pidfd, long pid, int signal, boolean toGroup) {
		if (pidfd < 0) {
			return this.posix.kill(toGroup ? -pid : pid, signal);
		}
		if (!toGroup) {
			return this.posix.pidfdSendSignal(pidfd, signal);
		}
		int result = this.posix.pidfdSendSignalToGroup(pidfd, signal);
		// Why: kernels before 6.9 cannot signal a group through a pidfd; the leader was
		// checked just before.
		return (result == EINVAL) ? this.posix.kill(-pid, signal) : result;
	}

	/**
	 * Signals the members of groups whose leaders are gone: each process carrying this
	 * owner's markers in one of those groups, verified one by one. One {@code /proc} scan
	 * serves every group.
	 * @return how many were signalled
	 */
	public int signalGroupRemnants(Owner owner, Set<Long> pgids, int signal) {
		int signalled = 0;
		for (MarkedProcess marked : this.probe.scanMarked(owner)) {
			Optional<ProcStat> stat = this.probe.stat(marked.pid());
			if (stat.isPresent() && pgids.contains(stat.get().pgrp())) {
				ExpectedIdentity identity = new ExpectedIdentity(marked.pid(), owner, marked.kind(), marked.name(),
						stat.get().startTime(), null);
				if (signal(identity, signal) == Verdict.OURS) {
					signalled++;
				}
			}
		}
		return signalled;
	}

}
