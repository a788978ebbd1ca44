package dev.tether.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.registry.RegistryRow;

/**
 * A supervisor's children by name, in registration order. Its monitor is the supervisor's one lock (the contract is
 * on {@link Supervisor}); every method here asserts that the caller holds it.
 */
final class ChildTable {

	private final Map<String, SupervisedChild> children = new LinkedHashMap<>();

	private int reconciling;

	private boolean closing;

	void add(SupervisedChild child) {
		assertHeld();
		if (this.children.containsKey(child.name())) {
			throw new InvalidChildSpecException(child.name(), "name", "is already registered");
		}
		this.children.put(child.name(), child);
	}

	@Nullable SupervisedChild find(String name) {
		assertHeld();
		return this.children.get(name);
	}

	/** @throws IllegalArgumentException when no child has that name */
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
		return this.children.values()
			.stream()
			.map(SupervisedChild::process)
			.filter((process) -> process != null)
			.map(ChildProcess::pid)
			.collect(Collectors.toSet());
	}

	/** The registry rows of every running process. */
	List<RegistryRow> rows(String installationId) {
		assertHeld();
		List<RegistryRow> rows = new ArrayList<>();
		for (SupervisedChild child : this.children.values()) {
			RegistryRow row = child.row(installationId);
			if (row != null) {
				rows.add(row);
			}
		}
		return rows;
	}

	/** A reconciliation is running: launches wait for its end, so that it cannot take a new child for an orphan. */
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

	/** Takes every wanted launch (none while a reconciliation runs). */
	List<SupervisedChild> claimLaunches() {
		assertHeld();
		if (this.reconciling > 0) {
			return List.of();
		}
		return this.children.values().stream().filter(SupervisedChild::claimLaunch).toList();
	}

	/** Checks, where assertions are on, that the caller holds the supervisor's lock. */
	void assertHeld() {
		assert Thread.holdsLock(this) : "the supervisor's lock is not held";
	}

	/** Checks, where assertions are on, that the caller does not hold the supervisor's lock (it is about to wait). */
	void assertNotHeld() {
		assert !Thread.holdsLock(this) : "the supervisor's lock is held where nothing may wait under it";
	}

}
