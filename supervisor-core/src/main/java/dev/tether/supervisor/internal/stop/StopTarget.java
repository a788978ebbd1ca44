package dev.tether.supervisor.internal.stop;

import dev.tether.supervisor.internal.identity.Verdict;

/**
 * A process the {@link StopLadder} stops: how its group is signalled and how its end is
 * observed. For a child of this JVM the end is its reaped exit; for any other process,
 * its absence from {@code /proc}.
 */
public interface StopTarget {

	/**
	 * Sends a signal to the target's process group (or to the process alone when it leads
	 * none).
	 * @return {@code OURS} when it was sent, {@code GONE} when the process has ended,
	 * anything else when it was refused (nothing was sent)
	 */
	Verdict signal(int signal);

	/** Whether the process has ended. */
	boolean hasEnded();

	/**
	 * The last resort when the process did not end within the grace after SIGKILL: for a
	 * shepherd, whose SIGKILL is a request to kill its tree, SIGKILL to the shepherd
	 * itself.
	 * @return whether anything was sent (the ladder then waits another grace)
	 */
	default boolean killHarder() {
		return false;
	}

}
