package dev.tether.supervisor;

/**
 * One resource limit of a child's command, as {@code setrlimit(2)} sets it: the soft
 * limit the kernel enforces, and the hard limit up to which the command itself may raise
 * it. Values are in the resource's unit (descriptors, processes, bytes, CPU seconds);
 * {@link #UNLIMITED} is none.
 *
 * @param soft the limit enforced, at most {@code hard}
 * @param hard the ceiling of the soft limit
 */
public record ResourceLimit(long soft, long hard) {

	/** No limit: the kernel's {@code RLIM_INFINITY}. */
	public static final long UNLIMITED = Long.MAX_VALUE;

	/**
	 * @throws IllegalArgumentException when a value is negative or the soft limit is
	 * above the hard one
	 */
	public ResourceLimit {
		if (soft < 0 || hard < 0) {
			throw new IllegalArgumentException("must not be negative (was " + text(soft) + ":" + text(hard) + ")");
		}
		if (soft > hard) {
			throw new IllegalArgumentException(
					"has its soft limit (" + text(soft) + ") above its hard limit (" + text(hard) + ")");
		}
	}

	/**
	 * The same value as soft and hard limit, as systemd's {@code LimitNOFILE=64} sets
	 * both.
	 */
	public static ResourceLimit of(long value) {
		return new ResourceLimit(value, value);
	}

	/**
	 * A value as written in configuration and errors: its number, or {@code infinity}.
	 */
	public static String text(long value) {
		return (value == UNLIMITED) ? "infinity" : Long.toString(value);
	}

	@Override
	public String toString() {
		return (this.soft == this.hard) ? text(this.soft) : text(this.soft) + ":" + text(this.hard);
	}

}
