package dev.tether.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The order children start and stop in, from their {@code depends-on}: a child starts
 * once everything it depends on is {@code RUNNING}, and stops before it.
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
					throw new InvalidChildSpecException(name, "depends-on",
							"names '" + dependency + "', which is not a child");
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

	/**
	 * Splits the children to stop into waves: a child is in a wave only once none of the
	 * others still to stop depends on it, so dependents stop before what they depend on.
	 * Children without dependencies all go in the first wave, stopped together as before.
	 * @param dependsOn each child's dependencies, by name
	 */
	static List<List<String>> stopWaves(List<String> names, Map<String, List<String>> dependsOn) {
		List<List<String>> waves = new ArrayList<>();
		List<String> left = new ArrayList<>(names);
		while (!left.isEmpty()) {
			Map<String, Integer> dependents = new HashMap<>();
			for (String name : left) {
				for (String dependency : dependsOn.getOrDefault(name, List.of())) {
					dependents.merge(dependency, 1, Integer::sum);
				}
			}
			List<String> wave = left.stream().filter((name) -> !dependents.containsKey(name)).toList();
			// Why never empty: the graph was checked for cycles; a wave of what is left
			// is the safe way out anyway.
			waves.add(wave.isEmpty() ? List.copyOf(left) : wave);
			left.removeAll(waves.get(waves.size() - 1));
		}
		return waves;
	}

}
