package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.internal.ports.PortGuard.PortClaim;

/**
 * Launches every child that wants a process, and routes each process's exit back to its
 * child. The port is inspected outside the supervisor's lock; the decision and the
 * spawn's hand-off happen under it (see {@link Supervisor} for why).
 */
final class LaunchDispatcher {

	private final ChildTable children;

	private final ChildLauncher launcher;

	private final OrphanStops orphans;

	private final RegistrySaver saver;

	private final EventOutbox outbox;

	private final LongSupplier clock;

	private final DependentRestarts dependents;

	private final DescriptorBudget descriptors;

	/**
	 * How many spawns are handed to the spawner before the first of them is waited for.
	 * Why a window, not every claimed child: the supervisor's lock is held until they are
	 * all recorded, and ticks, snapshots and exits wait for it meanwhile.
	 */
	private static final int WINDOW = 16;

	private final KillCauses kills = new KillCauses();

	// Why counted: a child refused for want of processes is retried once for each
	// process of ours that ended since the last tick, and so never in a loop. Guarded by
	// the supervisor's lock.
	private int ended;

	LaunchDispatcher(ChildTable children, ChildLauncher launcher, OrphanStops orphans, RegistrySaver saver,
			EventOutbox outbox, LongSupplier clock, DependentRestarts dependents, DescriptorBudget descriptors) {
		this.children = children;
		this.descriptors = descriptors;
		this.launcher = launcher;
		this.orphans = orphans;
		this.saver = saver;
		this.outbox = outbox;
		this.clock = clock;
		this.dependents = dependents;
	}

	/**
	 * Launches every child that wants a process and may have one now, round after round
	 * while a round launches something: a child that was waiting for its dependencies
	 * then starts in the same call as they do.
	 * @return each launched child as it stood right after its launch
	 */
	Map<String, ChildSnapshot> launchWanted() {
		return launch(List.of());
	}

	/**
	 * Asks for the named child's start and launches it first, then every other launch
	 * wanted; as {@link #launchWanted()} otherwise.
	 * @return the child's snapshot once spawned, or {@code null} when it was not spawned
	 * now (its dependencies do not run yet, or it failed before its spawn)
	 * @throws IllegalArgumentException when no child has this name
	 */
	@Nullable ChildSnapshot launchNow(String name) {
		SupervisedChild child;
		boolean claimed;
		synchronized (this.children) {
			child = this.children.require(name);
			child.requestStart();
			// Why claimed in the same hold as the request: another launcher (the tick's)
			// could take it otherwise, and the caller would be answered STARTING before
			// its process is known.
			claimed = this.children.claimLaunch(child);
		}
		return launch(claimed ? List.of(child) : List.of()).get(name);
	}

	private Map<String, ChildSnapshot> launch(List<SupervisedChild> claimed) {
		this.children.assertNotHeld();
		Map<String, ChildSnapshot> launched = new LinkedHashMap<>();
		if (!claimed.isEmpty()) {
			launchWindow(claimed, launched);
		}
		// Why rounds: the children just launched may be what others were waiting for.
		boolean spawned;
		do {
			spawned = launchRound(launched);
		}
		while (spawned);
		return launched;
	}

	/**
	 * @return whether a child was spawned
	 */
	private boolean launchRound(Map<String, ChildSnapshot> launched) {
		List<SupervisedChild> claimed;
		synchronized (this.children) {
			claimed = this.children.claimLaunches();
		}
		boolean spawned = false;
		for (int from = 0; from < claimed.size(); from += WINDOW) {
			spawned |= launchWindow(claimed.subList(from, Math.min(from + WINDOW, claimed.size())), launched);
		}
		return spawned;
	}

	/**
	 * Launches some of the claimed children: their spawns are all handed to the spawner
	 * before the first is waited for, and the outcomes recorded under the same hold of
	 * the supervisor's lock, so that no exit is applied to a child that does not know its
	 * pid yet.
	 * @return whether a child was spawned
	 */
	private boolean launchWindow(List<SupervisedChild> window, Map<String, ChildSnapshot> launched) {
		List<PortClaim> claims = new ArrayList<>(window.size());
		for (SupervisedChild child : window) {
			claims.add(this.launcher.inspectPort(child.spec()));
		}
		boolean spawned = false;
		synchronized (this.children) {
			List<SupervisedChild> decided = new ArrayList<>(window.size());
			List<ChildLauncher.Launch> started = new ArrayList<>(window.size());
			try {
				for (int i = 0; i < window.size(); i++) {
					SupervisedChild child = window.get(i);
					if (!child.launch().stillWanted() || this.children.closing()) {
						continue;
					}
					long now = this.clock.getAsLong();
					if (child.portFree(claims.get(i), this.orphans::stopRequest, now) && admitted(child)) {
						ChildLauncher.Launch launch = this.launcher.start(child,
								(pid, status) -> exited(child, pid, status), now);
						if (launch != null) {
							started.add(launch);
						}
						spawned = true;
					}
					decided.add(child);
				}
			}
			finally {
				// Why in a finally: a spawn handed over is a process that must be known.
				finishAll(started);
			}
			long now = this.clock.getAsLong();
			for (SupervisedChild child : decided) {
				launched.put(child.name(), child.snapshot(now));
			}
		}
		this.saver.changed();
		return spawned;
	}

	/**
	 * Records the outcome of every spawn handed over, each whatever became of the others,
	 * then throws the first failure, if any.
	 */
	private void finishAll(List<ChildLauncher.Launch> started) {
		RuntimeException runtime = null;
		Error error = null;
		// Why one reading for the window: the count is the host's, its spawns
		// start within moments of each other, and /proc/vmstat is long.
		OptionalLong oomKills = started.isEmpty() ? OptionalLong.empty() : this.kills.oomKillsNow();
		if (!started.isEmpty()) {
			// Why the last first: the spawner makes them in the order they were handed
			// over, so once it is done so are the others, and this thread is woken once
			// per window; waiting for each woke it, and the spawner's thread woke it,
			// once per child.
			started.get(started.size() - 1).pending().awaitDone();
		}
		for (ChildLauncher.Launch launch : started) {
			try {
				this.launcher.finish(launch);
				if (launch.child().process() != null) {
					this.kills.started(launch.child().process(), oomKills);
				}
			}
			catch (RuntimeException ex) {
				runtime = (runtime != null) ? runtime : ex;
			}
			catch (Error ex) {
				error = (error != null) ? error : ex;
			}
		}
		if (error != null) {
			throw error;
		}
		if (runtime != null) {
			throw runtime;
		}
	}

	private boolean admitted(SupervisedChild child) {
		String refusal = this.descriptors.admit(child.spec());
		if (refusal != null) {
			child.refused(Refusal.DESCRIPTORS, refusal, null);
		}
		return refusal == null;
	}

	/**
	 * Starts again, as many as now fit, the children refused for want of room: those
	 * refused for descriptors once these were counted free, those refused for processes
	 * one for each process of ours that ended since the last call. A refused child is
	 * retried when room frees up, never in a loop. Once per tick.
	 */
	void retryRefused() {
		long room = this.descriptors.use().room();
		synchronized (this.children) {
			int freed = this.ended;
			this.ended = 0;
			for (SupervisedChild child : this.children.all()) {
				if (room > 0 && child.retryRefused(Refusal.DESCRIPTORS)) {
					room--;
				}
				else if (freed > 0 && child.retryRefused(Refusal.PROCESSES)) {
					freed--;
				}
			}
		}
	}

	/**
	 * An adopted process is gone from {@code /proc}: its end is applied as an exit of
	 * unknown status.
	 */
	void adoptedGone(SupervisedChild child, ChildProcess process) {
		synchronized (this.children) {
			if (child.adoptedGone(process, this.clock.getAsLong(), random())) {
				this.ended++;
				this.orphans.groupExited(process.pid());
				this.dependents.ended(child);
			}
		}
	}

	private void exited(SupervisedChild child, long pid, ExitStatus status) {
		synchronized (this.children) {
			ChildProcess current = child.process();
			Predecessor previous = child.predecessor();
			ChildProcess process = (current != null && current.pid() == pid) ? current
					: (previous != null && previous.process().pid() == pid) ? previous.process() : null;
			if (process != null) {
				child.exited(pid, this.kills.explain(child, process, status), this.clock.getAsLong(), random());
				this.ended++;
				if (process.handle() == null) {
					this.orphans.exited(child.name(), process, status);
				}
				// Why only when the child has no process left: when the process a rolling
				// restart replaced ends, or a failed new one leaves the old one serving,
				// the child's service went on, and its dependents have nothing to follow.
				if (process == current && child.process() == null) {
					this.dependents.ended(child);
				}
			}
		}
		this.saver.changed();
		this.outbox.dispatch();
	}

	private static double random() {
		return ThreadLocalRandom.current().nextDouble();
	}

}
