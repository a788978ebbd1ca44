package dev.tether.supervisor;

/**
 * What the stop ladder achieved.
 */
public enum StopOutcome {

	/** There was no process to stop. */
	NOT_RUNNING,

	/** The pid no longer names our process; nothing was signalled. */
	NOT_OURS,

	/** It exited after the stop signal. */
	EXITED,

	/** It outlived the stop timeout and was killed with SIGKILL. */
	KILLED,

	/** It was still there after SIGKILL (uninterruptible sleep, or not ours to reap). */
	SURVIVED

}
