package dev.tether.supervisor.internal.supervision;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.spawn.Shepherd;

/**
 * What the supervisor has seen of one process of a child: its command's pid (the
 * process's own, or under a shepherd its first child, learnt once the shepherd has forked
 * it and kept, since a shepherd's later children are re-parented orphans), and whether
 * its shepherd was already found stopped. A new process starts with a new one. Guarded,
 * like its child, by the supervisor's lock.
 */
final class ShepherdedCommand {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private @Nullable Long pid;

	private boolean shepherdSeenStopped;

	/**
	 * The command's pid, learnt from {@code /proc} while its shepherd has not been seen
	 * to fork it.
	 */
	@Nullable Long pid(String child, ChildProcess process) {
		if (!process.shepherd()) {
			return process.pid();
		}
		if (this.pid == null) {
			Shepherd.commandPid(process.pid()).ifPresent((forked) -> forked(child, process, forked));
		}
		return this.pid;
	}

	/** Whether the command's pid is known (it always is without a shepherd). */
	boolean known(ChildProcess process) {
		return !process.shepherd() || this.pid != null;
	}

	/**
	 * The shepherd has forked its command. Why the start is logged here: the pid a child
	 * is known by (its {@code pid} in snapshots) is its command's, which exists only once
	 * the shepherd has forked it.
	 */
	void forked(String child, ChildProcess process, long pid) {
		if (this.pid == null) {
			this.pid = pid;
			logger.info("Child '{}' started as pid {} under shepherd pid {}", child, pid, process.pid());
		}
	}

	/**
	 * Records that the shepherd was found stopped; whether it had been found stopped
	 * before.
	 */
	boolean shepherdStoppedAgain() {
		boolean again = this.shepherdSeenStopped;
		this.shepherdSeenStopped = true;
		return again;
	}

}
