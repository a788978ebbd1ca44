package dev.tether.supervisor.internal.supervision;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.SupervisorListener;

/**
 * Events wait here between the transition that made them (under the supervisor's lock)
 * and their listeners.
 * <p>
 * Why a queue and a lock of its own: listeners are user code (Spring's event publisher,
 * meters) and must never run under the supervisor's lock; the dispatch lock keeps them in
 * the order the transitions happened, one at a time, whichever thread drains.
 */
final class EventOutbox {

	private static final Logger logger = LoggerFactory.getLogger(EventOutbox.class);

	private final ConcurrentLinkedQueue<ChildEvent> queue = new ConcurrentLinkedQueue<>();

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

	/**
	 * Hands every queued event to the listeners. Call it without holding the supervisor's
	 * lock.
	 */
	void dispatch() {
		this.children.assertNotHeld();
		synchronized (this.dispatchLock) {
			ChildEvent event;
			while ((event = this.queue.poll()) != null) {
				for (SupervisorListener listener : this.listeners) {
					try {
						listener.onEvent(event);
					}
					catch (Throwable ex) {
						// Why every Throwable: this runs on the reaper's and the tick's
						// threads, which must outlive any listener's failure.
						logger.warn("Listener failed on {} of '{}'", event.type(), event.child().name(), ex);
					}
				}
			}
		}
	}

}
