package dev.tether.supervisor.boot;

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.tether.supervisor.UnsafeDirectoryException;
import dev.tether.supervisor.registry.RegistryLockedException;

/**
 * Explains an unusable supervisor configuration at startup, naming the property.
 */
class InvalidSupervisorConfigurationFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidSupervisorConfigurationException> {

	private static final String STATE_DIRECTORY = "supervisor.state-directory";

	@Override
	public FailureAnalysis analyze(Throwable failure) {
		// Why here: the core refuses a state directory that another user could change
		// without knowing the property that named it.
		UnsafeDirectoryException unsafe = findCause(failure, UnsafeDirectoryException.class);
		if (unsafe != null) {
			return analyze(failure,
					new InvalidSupervisorConfigurationException(STATE_DIRECTORY, unsafe.getMessage(), unsafe));
		}
		// Why: a second supervisor on a state directory in use is a configuration mistake
		// too (two instances, or two contexts), and the property is what to change.
		RegistryLockedException locked = findCause(failure, RegistryLockedException.class);
		if (locked != null) {
			return analyze(failure,
					new InvalidSupervisorConfigurationException(STATE_DIRECTORY, locked.getMessage(), locked));
		}
		return super.analyze(failure);
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidSupervisorConfigurationException cause) {
		if (cause instanceof UnknownSupervisorPropertiesException unknown) {
			return unknownProperties(unknown);
		}
		return new FailureAnalysis(
				"Invalid supervisor configuration:\n\n    Property: " + cause.getProperty() + "\n    Problem: "
						+ cause.getReason() + "\n",
				"Update '" + cause.getProperty() + "' in your application's configuration.", cause);
	}

	private static FailureAnalysis unknownProperties(UnknownSupervisorPropertiesException cause) {
		StringBuilder description = new StringBuilder("Invalid supervisor configuration:\n");
		for (UnknownSupervisorPropertiesException.UnknownProperty unknown : cause.unknown()) {
			description.append("\n    Property: ").append(unknown.name()).append("\n");
			if (unknown.origin() != null) {
				description.append("    Origin: ").append(unknown.origin()).append("\n");
			}
			description.append("    Problem: ").append(unknown.problem()).append("\n");
		}
		String names = cause.unknown()
			.stream()
			.map((unknown) -> "'" + unknown.name() + "'")
			.collect(Collectors.joining(", "));
		return new FailureAnalysis(description.toString(), "Correct or remove " + names
				+ " in your application's configuration: a key under 'supervisor' that binds to no setting is refused, since it would otherwise be ignored without a word.",
				cause);
	}

}
