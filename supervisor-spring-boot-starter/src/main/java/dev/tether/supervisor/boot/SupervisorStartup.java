package dev.tether.supervisor.boot;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.Supervisor;

/**
 * Starts a child before the application is ready, for a component that needs it while the
 * context refreshes (an MCP client that connects to its server then). The supervisor
 * reconciles first, once per application, so that an orphan of a previous run is stopped
 * or adopted before anything is started; the supervision tick runs from then on; and the
 * autostart at {@code ApplicationReadyEvent} leaves a child started this way as it is
 * (one copy, never two).
 */
public final class SupervisorStartup {

	private final Supervisor supervisor;

	private final SupervisorLifecycle lifecycle;

	SupervisorStartup(Supervisor supervisor, SupervisorLifecycle lifecycle) {
		this.supervisor = supervisor;
		this.lifecycle = lifecycle;
	}

	/**
	 * Reconciles (once), starts the tick, and starts the child; see
	 * {@link Supervisor#start(String)}. A child with a port is {@code STARTING} until it
	 * accepts connections.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public ChildSnapshot start(String name) {
		this.lifecycle.reconcileOnce();
		this.lifecycle.startTicking();
		return this.supervisor.start(name);
	}

}
