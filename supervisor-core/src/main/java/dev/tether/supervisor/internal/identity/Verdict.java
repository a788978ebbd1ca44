package dev.tether.supervisor.internal.identity;

/**
 * Whether a pid names a process this installation spawned.
 */
public enum Verdict {

	/** Every marker matches, and so do the recorded start time and boot id. */
	OURS,

	/**
	 * A live process that is not ours (a reused pid, another installation, another
	 * child).
	 */
	NOT_OURS,

	/** No such process (or only its zombie). */
	GONE,

	/**
	 * It exists but cannot be checked (permission, no {@code /proc}, a parse failure).
	 * Never signalled.
	 */
	UNVERIFIABLE

}
