package dev.tether.supervisor;

/**
 * Where a child stands in its supervision.
 */
public enum ChildState {

	/** Not running, and not meant to be until someone starts it. */
	STOPPED,

	/** Spawned; waiting for its port to accept connections. */
	STARTING,

	/** Spawned (and, with a port, accepting connections). */
	RUNNING,

	/** Exited; waiting out the backoff before its restart. */
	BACKOFF,

	/** Its stop signal was sent; waiting for it to exit. */
	STOPPING,

	/** Exited and not restarted by its policy. */
	EXITED,

	/**
	 * The breaker opened, a start failed or the child could not be stopped; only an
	 * operator start clears it.
	 */
	FAILED

}
