package dev.tether.supervisor;

/**
 * A child specification is unusable; names the setting that is wrong.
 */
public class InvalidChildSpecException extends IllegalArgumentException {

	private final String childName;

	private final String setting;

	public InvalidChildSpecException(String childName, String setting, String message) {
		super("child '" + childName + "': " + setting + " " + message);
		this.childName = childName;
		this.setting = setting;
	}

	/** The child whose specification is wrong. */
	public String childName() {
		return this.childName;
	}

	/** The setting that is wrong, as named in configuration ({@code command}, {@code backoff.initial}, ...). */
	public String setting() {
		return this.setting;
	}

}
