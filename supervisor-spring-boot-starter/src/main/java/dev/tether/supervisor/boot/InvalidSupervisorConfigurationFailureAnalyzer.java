package dev.tether.supervisor.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an unusable supervisor configuration at startup, naming the property.
 */
class InvalidSupervisorConfigurationFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidSupervisorConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidSupervisorConfigurationException cause) {
		return new FailureAnalysis(
				"Invalid supervisor configuration:\n\n    Property: " + cause.getProperty() + "\n    Problem: "
						+ cause.getReason() + "\n",
				"Update '" + cause.getProperty() + "' in your application's configuration.", cause);
	}

}
