package dev.tether.supervisor;

/**
 * How children learn that the supervisor died.
 */
public enum ParentDeathMechanism {

	/** The native launcher shipped in the core jar arms the parent-death signal and checks the race. */
	LAUNCHER,

	/** {@code setpriv --pdeathsig} arms it (no check of the race where the supervisor died before). */
	SETPRIV,

	/** Children get no parent-death signal. */
	NONE;

	/** The lower-case form shown by the endpoint and health. */
	public String id() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
