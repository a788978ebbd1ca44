package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A child's restart is scheduled after its backoff.
 */
public class ChildRestartingEvent extends ChildLifecycleEvent {

	ChildRestartingEvent(ChildEvent event) {
		super(event);
	}

}
