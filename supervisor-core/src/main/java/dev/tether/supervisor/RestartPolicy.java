package dev.tether.supervisor;

/**
 * When a child that exited on its own is started again.
 */
public enum RestartPolicy {

	/** After every exit. */
	ALWAYS,

	/** After an exit with a non-zero code, by a signal, or with an unknown status. */
	ON_FAILURE,

	/** Never. */
	NEVER;

	boolean restartsAfter(ExitStatus status) {
		return switch (this) {
			case ALWAYS -> true;
			case ON_FAILURE -> !status.isClean();
			case NEVER -> false;
		};
	}

}
