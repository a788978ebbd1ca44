package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A process was spawned for a child.
 */
public class ChildStartedEvent extends ChildLifecycleEvent {

	ChildStartedEvent(ChildEvent event) {
		super(event);
	}

}
