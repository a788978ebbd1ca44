package dev.tether.supervisor;

/**
 * Receives child events. Called outside the supervisor's lock, so it may call back into
 * the supervisor.
 */
@FunctionalInterface
public interface SupervisorListener {

	void onEvent(ChildEvent event);

	/**
	 * A probe of a child failed. Called, like {@link #onEvent}, outside the supervisor's
	 * lock, in order with the child's events. Does nothing unless overridden.
	 * @param failure which probe of which child, and what it saw
	 */
	default void onProbeFailed(ProbeFailure failure) {
	}

}
