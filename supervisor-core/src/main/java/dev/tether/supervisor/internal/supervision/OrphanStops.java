package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.MarkedProcess;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.VerifiedProcess;

/**
 * Processes of ours that are no child's process: orphans of a previous run (at
 * reconciliation and on a child's port), members left in the group of a child that
 * exited, what a killed shepherd left, and daemons that left their child's group. Each is
 * verified by its markers before any signal.
 * <p>
 * Why a lock of its own: exits add groups from the reaper's delivery while the tick
 * sweeps them; the sweep itself runs outside every lock.
 */
final class OrphanStops {

	private static final Logger logger = LoggerFactory.getLogger(OrphanStops.class);

	private final Owner owner;

	private final IdentityProbe probe;

	private final ProcessSignaller signaller;

	private final @Nullable String bootId;

	private final Function<String, @Nullable ChildSpec> specs;

	private final Supplier<Set<Long>> childPids;

	// Why a bound: an ancestry is read one process at a time while processes come and go;
	// the walk must end.
	private static final int MAX_ANCESTRY = 1024;

	// Why: a name no longer configured is stopped with the defaults of every child, which
	// the builder holds.
	private static final ChildSpec DEFAULTS = ChildSpec.builder("defaults", List.of("true")).build();

	private final Set<Long> exitedGroups = new HashSet<>();

	private final Set<String> abandonedTrees = new HashSet<>();

	/**
	 * @param specs the spec of a configured child by name, or {@code null} for a name no
	 * longer configured
	 * @param childPids the pids of every child's current process
	 */
	OrphanStops(Owner owner, IdentityProbe probe, ProcessSignaller signaller, @Nullable String bootId,
			Function<String, @Nullable ChildSpec> specs, Supplier<Set<Long>> childPids) {
		this.owner = owner;
		this.probe = probe;
		this.signaller = signaller;
		this.bootId = bootId;
		this.specs = specs;
		this.childPids = childPids;
	}

	/**
	 * How a verified process of ours that is not our child is stopped: with its child's
	 * stop signal and timeout, or the defaults for a name that is no longer configured.
	 */
	StopLadder.Request stopRequest(ExpectedIdentity identity) {
		ChildSpec configured = this.specs.apply(identity.name());
		ChildSpec spec = (configured != null) ? configured : DEFAULTS;
		return new StopLadder.Request(new VerifiedProcess(identity, this.signaller), spec.stopSignal(),
				spec.stopTimeout());
	}

	/**
	 * The leader of this group exited: members left in it are ended at the next sweep.
	 */
	void groupExited(long pgid) {
		synchronized (this.exitedGroups) {
			this.exitedGroups.add(pgid);
		}
	}

	/**
	 * The process we spawned for a child exited: members left in its group are ended at
	 * the next sweep, and so is what a shepherd that ended by a signal may have left.
	 * Why: a shepherd ends its whole tree before it exits, unless it is killed; its
	 * command then dies with it (SIGKILL is the command's parent-death signal), but the
	 * command's own descendants are orphaned, out of its reach.
	 */
	void exited(String name, ChildProcess process, ExitStatus status) {
		synchronized (this.exitedGroups) {
			this.exitedGroups.add(process.pid());
			if (process.shepherd() && status.signal() != null) {
				this.abandonedTrees.add(name);
			}
		}
	}

	/**
	 * Ends members left in the groups of exited children, and what killed shepherds left:
	 * each verified by its markers, then SIGKILLed.
	 */
	void sweep() {
		Set<Long> groups;
		Set<String> trees;
		synchronized (this.exitedGroups) {
			groups = Set.copyOf(this.exitedGroups);
			trees = Set.copyOf(this.abandonedTrees);
			this.exitedGroups.clear();
			this.abandonedTrees.clear();
		}
		if (!groups.isEmpty()) {
			int killed = this.signaller.signalGroupRemnants(this.owner, groups, Posix.SIGKILL);
			if (killed > 0) {
				logger.info("Killed {} remaining member(s) of the process groups {}", killed, groups);
			}
		}
		if (!trees.isEmpty()) {
			endAbandonedTrees(trees);
		}
	}

	/**
	 * Kills each process that carries the markers of one of these children and descends
	 * from no child's current process, so that a child already restarted keeps its new
	 * tree.
	 */
	private void endAbandonedTrees(Set<String> names) {
		List<MarkedProcess> marked = this.probe.scanMarked(this.owner)
			.stream()
			.filter((process) -> names.contains(process.name()))
			.toList();
		// Why after the scan: a child restarted while it ran has its new process recorded
		// by now, so a process of its new tree that the scan listed is spared.
		Set<Long> current = this.childPids.get();
		int killed = 0;
		for (MarkedProcess process : marked) {
			Optional<ProcStat> stat = this.probe.stat(process.pid());
			if (stat.isPresent() && !mayDescendFrom(stat.get(), current)
					&& this.signaller.signal(new ExpectedIdentity(process.pid(), this.owner, process.kind(),
							process.name(), stat.get().startTime(), null), Posix.SIGKILL) == Verdict.OURS) {
				killed++;
			}
		}
		if (killed > 0) {
			logger.info("Killed {} process(es) left by the killed shepherd(s) of {}", killed, names);
		}
	}

	/**
	 * Whether the process is one of {@code ancestors} or descends from one. An ancestry
	 * that cannot be read to its end (a parent gone meanwhile) counts as descending: the
	 * process is then spared, never signalled on a guess.
	 */
	private boolean mayDescendFrom(ProcStat process, Set<Long> ancestors) {
		ProcStat at = process;
		for (int depth = 0; depth < MAX_ANCESTRY; depth++) {
			if (ancestors.contains(at.pid())) {
				return true;
			}
			if (at.ppid() <= 1) {
				return false;
			}
			Optional<ProcStat> parent = this.probe.stat(at.ppid());
			if (parent.isEmpty()) {
				return true;
			}
			at = parent.get();
		}
		return true;
	}

	/**
	 * Ends what carries this installation's markers but is no longer any child's process:
	 * daemons that left their child's group and session. Blocks until they are gone: call
	 * it without holding a lock.
	 */
	void stopStrays() {
		List<StopLadder.Request> strays = new ArrayList<>();
		for (MarkedProcess marked : this.probe.scanMarked(this.owner)) {
			this.probe.stat(marked.pid())
				.ifPresent((stat) -> strays.add(stopRequest(new ExpectedIdentity(marked.pid(), this.owner,
						marked.kind(), marked.name(), stat.startTime(), this.bootId))));
		}
		if (!strays.isEmpty()) {
			logger.info("Stopping {} process(es) that carry this supervisor's markers but left their child's group",
					strays.size());
			StopLadder.run(strays);
		}
	}

}
