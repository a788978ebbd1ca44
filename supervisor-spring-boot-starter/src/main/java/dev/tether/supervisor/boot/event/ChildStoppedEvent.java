package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A child was stopped on request.
 */
public class ChildStoppedEvent extends ChildLifecycleEvent {

	ChildStoppedEvent(ChildEvent event) {
		super(event);
	}

}
