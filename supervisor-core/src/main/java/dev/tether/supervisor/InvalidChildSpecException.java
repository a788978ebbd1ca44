package dev.tether.supervisor;

/**
 * A child specification is unusable; names the child, the setting that is wrong and why.
 */
public class InvalidChildSpecException extends IllegalArgumentException {

	private final String childName;

	private final String setting;

	private final String reason;

	/**
	 * @param childName the child whose specification is wrong
	 * @param setting the setting, as named in configuration ({@code port},
	 * {@code backoff.initial}, ...)
	 * @param reason what is wrong with it, a phrase that follows the setting's name
	 */
	public InvalidChildSpecException(String childName, String setting, String reason) {
		super("child '" + childName + "': " + setting + " " + reason);
		this.childName = childName;
		this.setting = setting;
		this.reason = reason;
	}

	/** The child whose specification is wrong. */
	public String childName() {
		return this.childName;
	}

	/**
	 * The setting that is wrong, as named in configuration ({@code command},
	 * {@code backoff.initial}, ...).
	 */
	public String setting() {
		return this.setting;
	}

	/**
	 * What is wrong with the setting, e.g.
	 * {@code must be between 1 and 65535 (was 70000)}.
	 */
	public String reason() {
		return this.reason;
	}

}
