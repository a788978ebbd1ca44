package dev.tether.supervisor.boot.event;

import org.springframework.context.ApplicationEvent;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSnapshot;

/**
 * Published for everything that happens to a supervised child. Listen for this type, or
 * for one of its subtypes.
 */
public abstract class ChildLifecycleEvent extends ApplicationEvent {

	private final transient ChildEvent event;

	ChildLifecycleEvent(ChildEvent event) {
		super(event.child());
		this.event = event;
	}

	/** The child just after the event. */
	public ChildSnapshot getChild() {
		return this.event.child();
	}

	/**
	 * The supervisor's event, with the exit, spawn duration, error or stop outcome it
	 * carries.
	 */
	public ChildEvent getEvent() {
		return this.event;
	}

	/** The Spring event for a supervisor event. */
	public static ChildLifecycleEvent of(ChildEvent event) {
		return switch (event.type()) {
			case STARTED -> new ChildStartedEvent(event);
			case EXITED -> new ChildExitedEvent(event);
			case RESTARTING -> new ChildRestartingEvent(event);
			case FAILED -> new ChildFailedEvent(event);
			case STOPPED -> new ChildStoppedEvent(event);
			case REMOVED -> new ChildRemovedEvent(event);
		};
	}

}
