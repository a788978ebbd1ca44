package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order children stop in, from their {@code depends-on}: dependents stop before what
 * they depend on.
 */
final class StopWaves {

	private StopWaves() {
	}

	/**
	 * Splits the children to stop into waves: a child is in a wave only once none of the
	 * others still to stop depends on it, so dependents stop before what they depend on.
	 * Children without dependencies all go in the first wave, stopped together as before.
	 * @param dependsOn each child's dependencies, by name
	 */
	static List<List<String>> of(List<String> names, Map<String, List<String>> dependsOn) {
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
