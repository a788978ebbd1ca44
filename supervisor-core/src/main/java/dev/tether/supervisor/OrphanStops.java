package dev.tether.supervisor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.MarkedProcess;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.VerifiedProcess;

/**
 * Processes of ours that are no child's process: orphans of a previous run (at reconciliation and on a child's
 * port), members left in the group of a child that exited, and daemons that left their child's group. Each is
 * verified by its markers before any signal.
 * <p>
 * Why a lock of its own: exits add groups from the reaper's delivery while the tick sweeps them; the sweep itself
 * runs outside every lock.
 */
final class OrphanStops {

	private static final Logger logger = LoggerFactory.getLogger(OrphanStops.class);

	private final Owner owner;

	private final IdentityProbe probe;

	private final ProcessSignaller signaller;

	private final @Nullable String bootId;

	private final Function<String, @Nullable ChildSpec> specs;

	// Why: a name no longer configured is stopped with the defaults of every child, which the builder holds.
	private static final ChildSpec DEFAULTS = ChildSpec.builder("defaults", List.of("true")).build();

	private final Set<Long> exitedGroups = new HashSet<>();

	/**
	 * @param specs the spec of a configured child by name, or {@code null} for a name no longer configured
	 */
	OrphanStops(Owner owner, IdentityProbe probe, ProcessSignaller signaller, @Nullable String bootId,
			Function<String, @Nullable ChildSpec> specs) {
		this.owner = owner;
		this.probe = probe;
		this.signaller = signaller;
		this.bootId = bootId;
		this.specs = specs;
	}

	/**
	 * How a verified process of ours that is not our child is stopped: with its child's stop signal and timeout, or
	 * the defaults for a name that is no longer configured.
	 */
	StopLadder.Request stopRequest(ExpectedIdentity identity) {
		ChildSpec configured = this.specs.apply(identity.name());
		ChildSpec spec = (configured != null) ? configured : DEFAULTS;
		return new StopLadder.Request(new VerifiedProcess(identity, this.signaller), spec.stopSignal(),
				spec.stopTimeout());
	}

	/** The leader of this group exited: members left in it are ended at the next sweep. */
	void groupExited(long pgid) {
		synchronized (this.exitedGroups) {
			this.exitedGroups.add(pgid);
		}
	}

	/** Ends members left in the groups of exited children: each verified by its markers, then SIGKILLed. */
	void sweepExitedGroups() {
		Set<Long> groups;
		synchronized (this.exitedGroups) {
			if (this.exitedGroups.isEmpty()) {
				return;
			}
			groups = Set.copyOf(this.exitedGroups);
			this.exitedGroups.clear();
		}
		int killed = this.signaller.signalGroupRemnants(this.owner, groups, Posix.SIGKILL);
		if (killed > 0) {
			logger.info("Killed {} remaining member(s) of the process groups {}", killed, groups);
		}
	}

	/**
	 * Ends what carries this installation's markers but is no longer any child's process: daemons that left their
	 * child's group and session. Blocks until they are gone: call it without holding a lock.
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
