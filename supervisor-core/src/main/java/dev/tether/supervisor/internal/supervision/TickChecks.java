package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.ports.PortOwnership;

/**
 * The part of each tick that reads the world outside the supervisor's lock: which probes
 * are due (sent to the probe client's thread, never waited on: a tick does no I/O that
 * can wait), whether an adopted process is still there, what the shepherds are doing,
 * whether a tree is above its max-memory, whether a notify wait ran out. The tick first
 * records, under the children, each child with the process it had
 * ({@link ChildrenAtTick}); the checks then run without the children, and each result is
 * applied under it to that same process only, so a later process is never judged by an
 * earlier check.
 */
final class TickChecks {

	private final ChildTable children;

	private final IdentityProbe probe;

	private final StopTargets targets;

	private final LaunchDispatcher launches;

	private final ShepherdWatch shepherds;

	private final ProbeScheduler probes;

	private final LongSupplier clock;

	private final ResourceWatch resources;

	private final ChildNotifications notifications;

	TickChecks(ChildTable children, IdentityProbe probe, StopTargets targets, LaunchDispatcher launches,
			ResourceWatch resources, PortOwnership ownership, EventOutbox outbox, ChildNotifications notifications,
			LongSupplier clock) {
		this.children = children;
		this.probe = probe;
		this.targets = targets;
		this.launches = launches;
		this.shepherds = new ShepherdWatch(probe, children, targets, clock);
		this.probes = new ProbeScheduler(children, targets, clock, ownership, outbox);
		this.resources = resources;
		this.notifications = notifications;
		this.clock = clock;
	}

	/** Runs the checks of what one pass of the tick saw. Call it holding no lock. */
	void apply(ChildrenAtTick seen) {
		this.children.assertNotHeld();
		this.probes.readiness(seen.starting);
		this.probes.liveness(seen.live);
		this.notifications.check(seen.notified);
		applyEndOfAdopted(seen.adopted);
		this.shepherds.watch(seen.shepherded);
		this.resources.checkMemory(seen.memoryLimited);
		this.resources.sweep();
	}

	/**
	 * Ends the probes: those in flight complete as failed, and their results are no
	 * longer applied.
	 */
	void close() {
		this.probes.close();
	}

	/**
	 * Adopted processes are not our children: their end is seen as their absence (or a
	 * new start time) in /proc.
	 */
	private void applyEndOfAdopted(Map<SupervisedChild, ChildProcess> adopted) {
		adopted.forEach((child, process) -> {
			if (!this.probe.isRunning(process.pid(), process.startTime())) {
				this.launches.adoptedGone(child, process);
			}
		});
	}

	/** What one pass of the tick saw under the children, child by child. */
	static final class ChildrenAtTick {

		private final Map<SupervisedChild, ChildProcess> starting = new LinkedHashMap<>();

		private final Map<SupervisedChild, ChildProcess> adopted = new LinkedHashMap<>();

		private final Map<SupervisedChild, ChildProcess> live = new LinkedHashMap<>();

		private final List<ShepherdWatch.WatchedShepherd> shepherded = new ArrayList<>();

		private final List<ResourceWatch.SampledTree> memoryLimited = new ArrayList<>();

		private final Map<SupervisedChild, ChildProcess> notified = new LinkedHashMap<>();

		/** Records {@code child} as it is now; call it holding the lock. */
		void add(SupervisedChild child) {
			ChildProcess process = child.process();
			if (process == null) {
				return;
			}
			if (process.adopted()) {
				this.adopted.put(child, process);
			}
			else if (process.shepherd()) {
				this.shepherded.add(new ShepherdWatch.WatchedShepherd(child, process, child.command().known(process)));
			}
			ChildSpec spec = child.spec();
			if (process.notifyChannel() != null || process.lineWatch() != null) {
				this.notified.put(child, process);
			}
			// Why not probed when it says itself that it is ready, or waits out a delay:
			// its port would make it RUNNING before that.
			if (child.state() == ChildState.STARTING && !spec.selfReport().readiness() && spec.startupDelay() == null) {
				this.starting.put(child, process);
			}
			else if (child.state() == ChildState.RUNNING && spec.liveness().enabled()) {
				this.live.put(child, process);
			}
			if (child.spec().resources().maxMemory() != null && child.state() != ChildState.STOPPING) {
				this.memoryLimited.add(ResourceWatch.seen(child));
			}
		}

	}

}
