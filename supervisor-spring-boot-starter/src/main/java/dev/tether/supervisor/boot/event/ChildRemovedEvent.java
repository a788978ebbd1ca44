package dev.tether.supervisor.boot.event;

import dev.tether.supervisor.ChildEvent;

/**
 * A child was removed from the supervisor at runtime, after its stop; no event of it
 * follows.
 */
public class ChildRemovedEvent extends ChildLifecycleEvent {

	ChildRemovedEvent(ChildEvent event) {
		super(event);
	}

}
