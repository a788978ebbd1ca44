package dev.tether.supervisor;

/**
 * How children learn that the supervisor died.
 */
public enum ParentDeathMechanism {

	/**
	 * The native launcher shipped in the core jar arms the parent-death signal and checks
	 * the race.
	 */
	LAUNCHER,

	/**
	 * {@code setpriv --pdeathsig} arms it (no check of the race where the supervisor died
	 * before).
	 */
	SETPRIV,

	/** Children get no parent-death signal. */
	NONE;

	/** The lower-case form shown by the endpoint and health. */
	public String id() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

	/**
	 * How the descendants of children are contained with this mechanism, as the endpoint
	 * shows it: {@code shepherd} (the launcher's shepherd ends every descendant with the
	 * child or the JVM) or {@code group} (only the child, leading its process group, is
	 * tied to the JVM's life).
	 */
	public String descendants() {
		return (this == LAUNCHER) ? "shepherd" : "group";
	}

}
