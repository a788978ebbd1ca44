package dev.tether.supervisor.boot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.tether.supervisor.ChildSnapshot;

/**
 * Contributes details of a child to its entry in the {@code children} endpoint
 * ({@code details}) and to its health, for a module that knows more about some children
 * than the supervisor does (an MCP child's session and tools). Every bean of this type is
 * asked, in order; later keys replace earlier ones.
 */
@FunctionalInterface
public interface ChildDetailsContributor {

	/**
	 * @param child the child as the supervisor sees it
	 * @return its details, empty when this contributor has none for it; values are
	 * serialised as JSON
	 */
	Map<String, Object> details(ChildSnapshot child);

	/** The details of every contributor, merged in order. */
	static Map<String, Object> merged(Iterable<ChildDetailsContributor> contributors, ChildSnapshot child) {
		Map<String, Object> details = new LinkedHashMap<>();
		contributors.forEach((contributor) -> details.putAll(contributor.details(child)));
		return details;
	}

}
