package dev.tether.supervisor.boot;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Keys under {@code supervisor} that bind to nothing: each one's name, where it was set,
 * and the setting it most likely meant.
 */
final class UnknownSupervisorPropertiesException extends InvalidSupervisorConfigurationException {

	private final List<UnknownProperty> unknown;

	UnknownSupervisorPropertiesException(List<UnknownProperty> unknown) {
		super(unknown.get(0).name(),
				unknown.get(0).reason() + unknown.stream()
					.skip(1)
					.map((other) -> "; and " + other.name() + " " + other.reason())
					.collect(Collectors.joining()),
				null);
		this.unknown = List.copyOf(unknown);
	}

	List<UnknownProperty> unknown() {
		return this.unknown;
	}

	/**
	 * One unknown key.
	 *
	 * @param name its full name
	 * @param origin where it was set (a file and a line), when known
	 * @param closest the full name of the setting it most likely meant, if any
	 */
	record UnknownProperty(String name, @Nullable String origin, @Nullable String closest) {

		/** What is wrong, for the problem line of the failure analysis. */
		String problem() {
			return "is not a setting of Tether"
					+ ((this.closest != null) ? "; did you mean " + this.closest + "?" : "");
		}

		String reason() {
			return problem() + ((this.origin != null) ? " (" + this.origin + ")" : "");
		}

	}

}
