package dev.tether.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The checks of the children's {@code depends-on}: every name is a child, and no cycle
 * runs through them (the engine's start and stop order rely on both).
 */
final class Dependencies {

	private Dependencies() {
	}

	/**
	 * Checks that every {@code depends-on} names one of {@code specs} and that no cycle
	 * runs through them.
	 * @throws InvalidChildSpecException naming the child, {@code depends-on}, and the
	 * unknown name or the cycle
	 */
	static void check(Collection<ChildSpec> specs) {
		Map<String, List<String>> graph = new LinkedHashMap<>();
		specs.forEach((spec) -> graph.put(spec.name(), spec.dependsOn()));
		graph.forEach((name, dependencies) -> {
			for (String dependency : dependencies) {
				if (!graph.containsKey(dependency)) {
					throw unknown(name, dependency);
				}
			}
		});
		Set<String> done = new HashSet<>();
		// Why sorted: the same cycle is reported the same way, whatever order the
		// configuration listed it in.
		for (String name : new TreeSet<>(graph.keySet())) {
			visit(name, graph, new ArrayList<>(), done);
		}
	}

	/** As {@link ChildSpec#checkDependenciesOfAdded}. */
	static void checkAdded(ChildSpec added, Predicate<String> isChild) {
		for (String dependency : added.dependsOn()) {
			if (!isChild.test(dependency)) {
				throw unknown(added.name(), dependency);
			}
		}
	}

	private static InvalidChildSpecException unknown(String name, String dependency) {
		return new InvalidChildSpecException(name, "depends-on", "names '" + dependency + "', which is not a child");
	}

	private static void visit(String name, Map<String, List<String>> graph, List<String> path, Set<String> done) {
		int seen = path.indexOf(name);
		if (seen >= 0) {
			List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
			cycle.add(name);
			throw new InvalidChildSpecException(cycle.get(0), "depends-on",
					"forms a cycle: " + String.join(" -> ", cycle));
		}
		if (done.contains(name)) {
			return;
		}
		path.add(name);
		for (String dependency : graph.get(name)) {
			visit(dependency, graph, path, done);
		}
		path.remove(path.size() - 1);
		done.add(name);
	}

}
