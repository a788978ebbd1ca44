package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;

/**
 * The supervisor's configuration cannot work; names the property at fault.
 */
public class InvalidSupervisorConfigurationException extends IllegalStateException {

	private final String property;

	private final String reason;

	public InvalidSupervisorConfigurationException(String property, String reason, @Nullable Throwable cause) {
		super(property + " " + reason, cause);
		this.property = property;
		this.reason = reason;
	}

	/**
	 * The full name of the property at fault, e.g.
	 * {@code supervisor.children.greeter.command}.
	 */
	public String getProperty() {
		return this.property;
	}

	/** What is wrong with it. */
	public String getReason() {
		return this.reason;
	}

}
