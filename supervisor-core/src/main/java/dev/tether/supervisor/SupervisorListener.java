package dev.tether.supervisor;

/**
 * Receives child events. Called outside the supervisor's lock, so it may call back into
 * the supervisor.
 */
@FunctionalInterface
public interface SupervisorListener {

	void onEvent(ChildEvent event);

}
