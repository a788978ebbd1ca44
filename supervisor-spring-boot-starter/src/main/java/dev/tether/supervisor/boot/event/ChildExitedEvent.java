package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A child's process exited on its own.
 */
public class ChildExitedEvent extends ChildLifecycleEvent {

	ChildExitedEvent(ChildEvent event) {
		super(event);
	}

}
