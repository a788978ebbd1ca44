package dev.tether.supervisor.boot.test;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;

/**
 * What a test reads of, and waits for in, the children of a {@link Supervisor}. A test
 * method of a class annotated with {@link NoChildLeftRunning} can take one as a
 * parameter; otherwise use {@link #of(Supervisor)}. <pre class="code">
 * children.awaitState("worker", ChildState.RUNNING);
 * </pre>
 */
public final class SupervisedChildren {

	/**
	 * How long {@link #awaitState(String, ChildState)} waits: generous, as children start
	 * slowly on loaded machines.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private final Supervisor supervisor;

	private SupervisedChildren(Supervisor supervisor) {
		this.supervisor = supervisor;
	}

	/**
	 * The children of a supervisor.
	 * @param supervisor the supervisor, usually the context's bean
	 * @return its children
	 */
	public static SupervisedChildren of(Supervisor supervisor) {
		return new SupervisedChildren(supervisor);
	}

	/** The supervisor, to start, stop or restart a child. */
	public Supervisor supervisor() {
		return this.supervisor;
	}

	/**
	 * The child as it stands now.
	 * @param name the child's name
	 * @return its snapshot
	 * @throws IllegalArgumentException naming the child and the known children when there
	 * is no such child
	 */
	public ChildSnapshot snapshot(String name) {
		return this.supervisor.snapshot(name)
			.orElseThrow(() -> new IllegalArgumentException("no child named '" + name + "'; the children are "
					+ this.supervisor.snapshots().stream().map(ChildSnapshot::name).toList()));
	}

	/**
	 * The names of the children that have a process now, or are waiting out a backoff to
	 * get one again.
	 * @return the names, in the supervisor's order
	 */
	public List<String> active() {
		return this.supervisor.snapshots()
			.stream()
			.filter(SupervisedChildren::isActive)
			.map(ChildSnapshot::name)
			.toList();
	}

	/**
	 * Waits up to {@link #DEFAULT_TIMEOUT} until the child is in the state.
	 * @param name the child's name
	 * @param state the state to wait for
	 * @return the child's snapshot in that state
	 * @throws AssertionError naming the child, the state it is in and its last error when
	 * the deadline passes
	 */
	public ChildSnapshot awaitState(String name, ChildState state) {
		return awaitState(name, state, DEFAULT_TIMEOUT);
	}

	/**
	 * Waits until the child is in the state. A {@code RUNNING} child is waited for until
	 * its pid is known too: under a shepherd, a child is {@code RUNNING} from the
	 * shepherd's spawn, and its command's pid is learnt a moment later, once the shepherd
	 * has forked it.
	 * @param name the child's name
	 * @param state the state to wait for
	 * @param timeout how long to wait
	 * @return the child's snapshot in that state
	 * @throws AssertionError naming the child, the state it is in and its last error when
	 * the deadline passes
	 */
	public ChildSnapshot awaitState(String name, ChildState state, Duration timeout) {
		AtomicReference<ChildSnapshot> last = new AtomicReference<>(snapshot(name));
		try {
			Awaitility.await("child '" + name + "' " + state)
				.atMost(timeout)
				.pollInterval(POLL_INTERVAL)
				.pollInSameThread()
				.until(() -> {
					ChildSnapshot child = snapshot(name);
					last.set(child);
					return child.state() == state && (state != ChildState.RUNNING || child.pid() != null);
				});
			return last.get();
		}
		catch (ConditionTimeoutException ex) {
			ChildSnapshot child = last.get();
			throw new AssertionError("child '" + name + "' did not reach " + state + " within " + timeout + ": it is "
					+ child.state() + ((child.state() == state) ? " (its pid not yet known)" : "")
					+ ((child.lastError() != null) ? " (last error: " + child.lastError() + ")" : "")
					+ ((child.lastExit() != null) ? " (last exit: " + child.lastExit() + ")" : ""), ex);
		}
	}

	/**
	 * Waits until none of the children is {@code STOPPING}.
	 * @param names the children's names
	 * @param timeout how long to wait
	 * @throws AssertionError naming the children still stopping when the deadline passes
	 */
	void awaitNoneStopping(Collection<String> names, Duration timeout) {
		try {
			Awaitility.await("children " + names + " stopped")
				.atMost(timeout)
				.pollInterval(POLL_INTERVAL)
				.pollInSameThread()
				.until(() -> stopping(names).isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("children " + stopping(names) + " were still stopping after " + timeout, ex);
		}
	}

	private List<String> stopping(Collection<String> names) {
		return this.supervisor.snapshots()
			.stream()
			.filter((child) -> child.state() == ChildState.STOPPING && names.contains(child.name()))
			.map(ChildSnapshot::name)
			.toList();
	}

	static boolean isActive(ChildSnapshot child) {
		return switch (child.state()) {
			case STARTING, RUNNING, BACKOFF, STOPPING -> true;
			case STOPPED, EXITED, FAILED -> false;
		};
	}

}
