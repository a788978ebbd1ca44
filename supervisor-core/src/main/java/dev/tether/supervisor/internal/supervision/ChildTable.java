package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.InvalidChildSpecException;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.registry.RegistryRow;

/**
 * A supervisor's children by name, in registration order. Its monitor is the supervisor's
 * one lock (the contract is on {@link Supervisor}); every method here asserts that the
 * caller holds it.
 */
final class ChildTable {

	private final Map<String, SupervisedChild> children = new LinkedHashMap<>();

	/**
	 * The children that asked for a launch since {@link #claimLaunches} last found them
	 * wanting none; a child leaves with its place in the table. Why kept apart: every
	 * start and add claims launches, and looking through all the children each time made
	 * n adds cost n squared.
	 */
	private final Set<SupervisedChild> wantingLaunch = new LinkedHashSet<>();

	// Why kept apart: a configuration update replaces the configured children and never
	// touches these.
	private final Set<String> addedAtRuntime = new HashSet<>();

	private int reconciling;

	private boolean closing;

	// Why counted: the resources' sweep looks for trees of departed children only when
	// one has departed since its last look (see ResourceWatch#sweep).
	private int departures;

	/**
	 * @throws InvalidChildSpecException when the name is taken
	 * @throws IllegalStateException when the supervisor is closing
	 */
	void add(SupervisedChild child, boolean atRuntime) {
		assertHeld();
		if (this.closing) {
			throw new IllegalStateException("the supervisor is closing: child '" + child.name() + "' was not added");
		}
		if (this.children.containsKey(child.name())) {
			throw new InvalidChildSpecException(child.name(), "name", "is already registered");
		}
		this.children.put(child.name(), child);
		if (atRuntime) {
			this.addedAtRuntime.add(child.name());
		}
	}

	/**
	 * Puts a configured child with new settings in the place of the old one, which holds
	 * no process.
	 */
	void replace(SupervisedChild old, SupervisedChild replacement) {
		assertHeld();
		if (old.process() != null || old.predecessor() != null || this.children.get(old.name()) != old) {
			throw new IllegalStateException("child '" + old.name() + "' cannot be replaced while it runs");
		}
		this.children.put(old.name(), replacement);
		this.wantingLaunch.remove(old);
		this.departures++;
	}

	/** Whether the child was added at runtime, not by configuration. */
	boolean addedAtRuntime(String name) {
		assertHeld();
		return this.addedAtRuntime.contains(name);
	}

	/** Forgets a child that holds no process (a removed one, once stopped). */
	void remove(SupervisedChild child) {
		assertHeld();
		if (child.process() != null || child.predecessor() != null) {
			throw new IllegalStateException("child '" + child.name() + "' still holds a process");
		}
		if (this.children.remove(child.name(), child)) {
			this.addedAtRuntime.remove(child.name());
			this.wantingLaunch.remove(child);
			this.departures++;
			child.forgotten();
		}
	}

	/** How many children have left the table (removed, or replaced) so far. */
	int departures() {
		assertHeld();
		return this.departures;
	}

	@Nullable SupervisedChild find(String name) {
		assertHeld();
		return this.children.get(name);
	}

	/**
	 * @throws IllegalArgumentException when no child has that name
	 */
	SupervisedChild require(String name) {
		SupervisedChild child = find(name);
		if (child == null) {
			throw new IllegalArgumentException("no child named '" + name + "'");
		}
		return child;
	}

	Collection<SupervisedChild> all() {
		assertHeld();
		return this.children.values();
	}

	List<String> names() {
		assertHeld();
		return List.copyOf(this.children.keySet());
	}

	/** The pids of the processes the children hold now: never taken for orphans. */
	Set<Long> pids() {
		assertHeld();
		Set<Long> pids = new HashSet<>();
		for (SupervisedChild child : this.children.values()) {
			ChildProcess process = child.process();
			Predecessor previous = child.predecessor();
			if (process != null) {
				pids.add(process.pid());
			}
			// Why: the process a rolling restart replaces is the child's until it ends.
			if (previous != null) {
				pids.add(previous.process().pid());
			}
		}
		return pids;
	}

	/** The registry rows of every running process. */
	List<RegistryRow> rows(String installationId) {
		assertHeld();
		List<RegistryRow> rows = new ArrayList<>();
		for (SupervisedChild child : this.children.values()) {
			ChildProcess process = child.process();
			if (process != null) {
				rows.add(new RegistryRow(child.name(), child.spec().kind().id(), installationId, process.pid(),
						process.pid(), process.startTime(), process.bootId(), child.state().name(), process.startedAt(),
						child.restarts(), child.spec().port()));
			}
		}
		return rows;
	}

	/**
	 * A reconciliation is running: launches wait for its end, so that it cannot take a
	 * new child for an orphan.
	 */
	void reconciling(boolean running) {
		assertHeld();
		this.reconciling += running ? 1 : -1;
	}

	/**
	 * Marks the supervisor closing: no launch happens afterwards.
	 * @return whether this call was the first to do so
	 */
	boolean close() {
		assertHeld();
		boolean first = !this.closing;
		this.closing = true;
		return first;
	}

	boolean closing() {
		assertHeld();
		return this.closing;
	}

	/**
	 * Takes every wanted launch whose child's dependencies are all {@code RUNNING} (none
	 * while a reconciliation runs, or once the supervisor is closing).
	 */
	List<SupervisedChild> claimLaunches() {
		assertHeld();
		List<SupervisedChild> claimed = new ArrayList<>();
		Iterator<SupervisedChild> wanting = this.wantingLaunch.iterator();
		while (wanting.hasNext()) {
			SupervisedChild child = wanting.next();
			if (!child.launch().wanted()) {
				wanting.remove();
			}
			else if (claimLaunch(child)) {
				claimed.add(child);
			}
		}
		return claimed;
	}

	/** The child wants a launch: {@link #claimLaunches} will look at it. */
	void wantsLaunch(SupervisedChild child) {
		assertHeld();
		this.wantingLaunch.add(child);
	}

	/**
	 * Claims the child's launch for the caller where {@link #claimLaunches} would: it is
	 * wanted, none is under way, and the children it depends on run.
	 */
	boolean claimLaunch(SupervisedChild child) {
		assertHeld();
		return this.reconciling == 0 && !this.closing && child.spec().dependsOn().stream().allMatch(this::running)
				&& child.launch().claim();
	}

	private boolean running(String name) {
		SupervisedChild child = this.children.get(name);
		return child != null && child.state() == ChildState.RUNNING;
	}

	/** The children that depend on {@code name}. */
	List<String> dependents(String name) {
		assertHeld();
		return this.children.values()
			.stream()
			.filter((child) -> child.spec().dependsOn().contains(name))
			.map(SupervisedChild::name)
			.toList();
	}

	/** Each child's dependencies, by name. */
	Map<String, List<String>> dependencies() {
		assertHeld();
		Map<String, List<String>> dependencies = new LinkedHashMap<>();
		this.children.forEach((name, child) -> dependencies.put(name, child.spec().dependsOn()));
		return dependencies;
	}

	/** Checks, where assertions are on, that the caller holds the supervisor's lock. */
	void assertHeld() {
		assert Thread.holdsLock(this) : "the supervisor's lock is not held";
	}

	/**
	 * Checks, where assertions are on, that the caller does not hold the supervisor's
	 * lock (it is about to wait).
	 */
	void assertNotHeld() {
		assert !Thread.holdsLock(this) : "the supervisor's lock is held where nothing may wait under it";
	}

}
