package dev.tether.supervisor;

/**
 * In what order a restart replaces a running process with a new one.
 */
public enum RestartMode {

	/**
	 * The old process is stopped through its ladder, then the new one is started: the
	 * default. With socket activation, clients wait in the socket's backlog meanwhile
	 * instead of being refused.
	 */
	STOP_FIRST,

	/**
	 * The new process is started first, on the same listening socket (so it needs socket
	 * activation); once it is ready (by {@code readiness.notify},
	 * {@code readiness.log-line} or {@code readiness.http-get}), the old one is stopped
	 * through its ladder, so that for a moment both accept. A new process that fails its
	 * readiness is stopped, and the old one keeps serving. Applies to an operator's
	 * restart and to a failed liveness or memory check; a process that exited is started
	 * again as with {@link #STOP_FIRST}.
	 */
	ROLLING

}
