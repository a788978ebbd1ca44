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

	/**
	 * Whether a child restarts after an exit.
	 * @param failed whether the exit was a failure (non-zero, a signal, unknown, or a
	 * missed startup timeout)
	 */
	public boolean restartsAfter(boolean failed) {
		return switch (this) {
			case ALWAYS -> true;
			case ON_FAILURE -> failed;
			case NEVER -> false;
		};
	}

}
