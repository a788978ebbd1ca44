package dev.tether.supervisor.internal.supervision;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ProbeFailure;
import dev.tether.supervisor.SupervisorListener;

/**
 * Events (and probe failures) wait here between the transition that made them (under the
 * supervisor's lock) and their listeners.
 * <p>
 * Why a queue and a lock of its own: listeners are user code (Spring's event publisher,
 * meters) and must never run under the supervisor's lock; the dispatch lock keeps them in
 * the order the transitions happened, one at a time, whichever thread drains.
 */
final class EventOutbox {

	private static final Logger logger = LoggerFactory.getLogger(EventOutbox.class);

	// Why one queue of both: a probe failure and the events it leads to reach listeners
	// in the order they happened.
	private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();

	private final Object dispatchLock = new Object();

	private final List<SupervisorListener> listeners;

	// Why: only to assert that listeners never run under the supervisor's lock.
	private final ChildTable children;

	EventOutbox(List<SupervisorListener> listeners, ChildTable children) {
		this.listeners = List.copyOf(listeners);
		this.children = children;
	}

	void add(ChildEvent event) {
		this.queue.add(event);
	}

	void add(ProbeFailure failure) {
		this.queue.add(failure);
	}

	/**
	 * Hands every queued event to the listeners. Call it without holding the supervisor's
	 * lock.
	 */
	void dispatch() {
		this.children.assertNotHeld();
		synchronized (this.dispatchLock) {
			Object item;
			while ((item = this.queue.poll()) != null) {
				for (SupervisorListener listener : this.listeners) {
					deliver(listener, item);
				}
			}
		}
	}

	private static void deliver(SupervisorListener listener, Object item) {
		try {
			if (item instanceof ChildEvent event) {
				listener.onEvent(event);
			}
			else {
				listener.onProbeFailed((ProbeFailure) item);
			}
		}
		catch (Throwable ex) {
			// Why every Throwable: this runs on the reaper's and the tick's threads,
			// which must outlive any listener's failure.
			logger.warn("Listener failed on {}", describe(item), ex);
		}
	}

	private static String describe(Object item) {
		if (item instanceof ChildEvent event) {
			return event.type() + " of '" + event.child().name() + "'";
		}
		ProbeFailure failure = (ProbeFailure) item;
		return "a failed " + failure.probe() + " probe of '" + failure.child() + "'";
	}

}
