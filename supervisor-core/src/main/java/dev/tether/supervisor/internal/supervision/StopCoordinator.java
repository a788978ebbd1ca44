package dev.tether.supervisor.internal.supervision;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * Stops children through the stop ladder: each stop begins under the supervisor's lock
 * and is waited for holding none, advanced meanwhile so that its deadlines do not depend
 * on the tick.
 */
final class StopCoordinator {

	private final ChildTable children;

	private final Reaper reaper;

	private final ProcessSignaller signaller;

	private final Owner owner;

	private final OrphanStops orphans;

	private final EventOutbox outbox;

	private final LongSupplier clock;

	StopCoordinator(ChildTable children, Reaper reaper, ProcessSignaller signaller, Owner owner, OrphanStops orphans,
			EventOutbox outbox, LongSupplier clock) {
		this.children = children;
		this.reaper = reaper;
		this.signaller = signaller;
		this.owner = owner;
		this.orphans = orphans;
		this.outbox = outbox;
		this.clock = clock;
	}

	/** How a child's process is signalled and its end observed. */
	StopTarget target(SupervisedChild child, ChildProcess process) {
		return process.stopTarget(this.reaper, this.signaller, this.owner, child.spec());
	}

	/**
	 * Stops the named children, dependents before what they depend on
	 * ({@code depends-on}); the children of one wave stop at once, so a wave takes about
	 * its longest stop timeout, not their sum.
	 */
	Map<String, StopOutcome> inOrder(List<String> names) {
		List<List<String>> waves;
		synchronized (this.children) {
			waves = StopWaves.of(names, this.children.dependencies());
		}
		Map<String, StopOutcome> outcomes = new LinkedHashMap<>();
		waves.forEach((wave) -> outcomes.putAll(together(wave)));
		return outcomes;
	}

	/** Stops the named children at once and waits until each stop is over. */
	Map<String, StopOutcome> together(List<String> names) {
		this.children.assertNotHeld();
		Map<String, CompletableFuture<StopOutcome>> pending = new LinkedHashMap<>();
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			for (String name : names) {
				SupervisedChild child = this.children.require(name);
				ChildProcess process = child.process();
				pending.put(name, child.beginStop((process != null) ? target(child, process) : null, now));
			}
		}
		this.outbox.dispatch();
		Map<String, StopOutcome> outcomes = new LinkedHashMap<>();
		// Why advance while waiting: the reaped exit normally completes a stop; advancing
		// covers escalation deadlines and adopted processes without depending on anyone
		// calling tick().
		pending.forEach((name, outcome) -> outcomes.put(name, StopLadder.await(outcome, () -> {
			this.reaper.drain();
			advance();
		})));
		this.orphans.sweep();
		return outcomes;
	}

	/**
	 * Moves every stop in progress on: SIGKILL after its timeout, the end of an adopted
	 * process.
	 */
	void advance() {
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			this.children.all().forEach((child) -> child.advanceStop(now));
		}
		this.outbox.dispatch();
	}

}
