package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.InvalidChildSpecException;
import dev.tether.supervisor.UpdateReport;

/**
 * Applies a new configuration to a supervisor's configured children, as supervisord's
 * {@code update} does: new children are added, children no longer named are removed,
 * changed ones restart with their new settings, and unchanged ones keep their process.
 * Children added at runtime are left alone. The whole configuration is checked before
 * anything changes.
 */
final class Reconfiguration {

	private final ChildTable children;

	private final StopCoordinator stops;

	private final ChildLauncher launcher;

	private final Function<ChildSpec, SupervisedChild> newChild;

	/** The end of the last update begun: updates run one after the other. */
	private final AtomicReference<CompletableFuture<Void>> lastUpdate = new AtomicReference<>(
			CompletableFuture.completedFuture(null));

	Reconfiguration(ChildTable children, StopCoordinator stops, ChildLauncher launcher,
			Function<ChildSpec, SupervisedChild> newChild) {
		this.children = children;
		this.stops = stops;
		this.launcher = launcher;
		this.newChild = newChild;
	}

	/**
	 * Stops what is removed or changed, then puts the new configuration in place; the
	 * caller launches what wants a process afterwards.
	 * @throws InvalidChildSpecException naming the child and setting, before anything
	 * changed
	 */
	UpdateReport apply(List<ChildSpec> configured) {
		CompletableFuture<Void> mine = new CompletableFuture<>();
		CompletableFuture<Void> previous = this.lastUpdate.getAndSet(mine);
		try {
			// Why a chain of futures and not a lock: an update waits for its stops, and
			// no lock is held while a process takes its time; the next update waits for
			// this one's end holding none.
			previous.join();
			return applyAlone(configured);
		}
		finally {
			mine.complete(null);
		}
	}

	private UpdateReport applyAlone(List<ChildSpec> configured) {
		Map<String, ChildSpec> wanted = new LinkedHashMap<>();
		configured.forEach((spec) -> wanted.put(spec.name(), spec));
		List<String> added = new ArrayList<>();
		List<String> removed = new ArrayList<>();
		List<String> changed = new ArrayList<>();
		List<String> unchanged = new ArrayList<>();
		List<String> restart = new ArrayList<>();
		Map<String, SupervisedChild> old = new LinkedHashMap<>();
		synchronized (this.children) {
			check(wanted);
			wanted.keySet().stream().filter((name) -> this.children.find(name) == null).forEach(added::add);
			// Why now, with the check and before any other change: a runtime add of one
			// of these names before the launch would otherwise fail this update after it
			// changed children; a closing supervisor refuses the first of them.
			for (String name : added) {
				this.children.add(this.newChild.apply(wanted.get(name)), false);
			}
			for (SupervisedChild child : this.children.all()) {
				if (this.children.addedAtRuntime(child.name()) || added.contains(child.name())) {
					continue;
				}
				ChildSpec spec = wanted.get(child.name());
				if (spec == null || !spec.equals(child.spec())) {
					((spec != null) ? changed : removed).add(child.name());
					old.put(child.name(), child);
					if (spec != null && (child.process() != null || child.state() != ChildState.STOPPED)) {
						restart.add(child.name());
					}
					child.retire();
				}
				else {
					unchanged.add(child.name());
				}
			}
		}
		this.stops.inOrder(new ArrayList<>(old.keySet()));
		synchronized (this.children) {
			removed.forEach((name) -> this.children.remove(old.get(name)));
			for (String name : changed) {
				SupervisedChild replacement = this.newChild.apply(wanted.get(name));
				this.children.replace(old.get(name), replacement);
				if (restart.contains(name)) {
					replacement.requestStart();
				}
			}
			for (String name : added) {
				SupervisedChild child = this.children.find(name);
				if (child != null && child.spec().autostart()) {
					child.requestStart();
				}
			}
		}
		removed.forEach(this.launcher::forget);
		changed.forEach(this.launcher::renew);
		return new UpdateReport(added, removed, changed, unchanged);
	}

	/**
	 * The new configured children beside the runtime ones: no name twice, and a
	 * dependency graph that holds.
	 */
	private void check(Map<String, ChildSpec> wanted) {
		List<ChildSpec> all = new ArrayList<>(wanted.values());
		for (SupervisedChild child : this.children.all()) {
			if (this.children.addedAtRuntime(child.name())) {
				if (wanted.containsKey(child.name())) {
					throw new InvalidChildSpecException(child.name(), "name", "is taken by a child added at runtime");
				}
				all.add(child.spec());
			}
		}
		ChildSpec.checkDependencies(all);
	}

}
