package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A child is FAILED: its breaker opened, or a start or stop failed.
 */
public class ChildFailedEvent extends ChildLifecycleEvent {

	ChildFailedEvent(ChildEvent event) {
		super(event);
	}

}
