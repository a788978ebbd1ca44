package dev.tether.supervisor.internal.spawn;

import dev.tether.supervisor.ParentDeathMechanism;

/**
 * Who puts a child in its working directory: the spawn itself
 * ({@code posix_spawn_file_actions_addchdir_np}, glibc 2.29 and later), else the launcher
 * ({@code --chdir}), else nobody, and a child that needs one cannot be spawned.
 */
enum WorkingDirectoryChange {

	/** A file action of the spawn. */
	SPAWN_ACTION("spawn-action", "posix_spawn_file_actions_addchdir_np"),

	/** The launcher, before it runs the command. */
	LAUNCHER("launcher", "the launcher's --chdir (this glibc has no posix_spawn_file_actions_addchdir_np)"),

	/**
	 * Nobody: a child with a working directory fails to spawn, with an error saying why.
	 */
	UNAVAILABLE("unavailable",
			"nothing (this glibc has no posix_spawn_file_actions_addchdir_np and the launcher is not in use)");

	private final String id;

	private final String description;

	WorkingDirectoryChange(String id, String description) {
		this.id = id;
		this.description = description;
	}

	/** How the endpoint names it. */
	String id() {
		return this.id;
	}

	/**
	 * Chooses from what was probed.
	 * @param spawnAction whether glibc has the chdir file action
	 * @param parentDeath the parent-death mechanism in force
	 */
	static WorkingDirectoryChange choose(boolean spawnAction, ParentDeathMechanism parentDeath) {
		if (spawnAction) {
			return SPAWN_ACTION;
		}
		return (parentDeath == ParentDeathMechanism.LAUNCHER) ? LAUNCHER : UNAVAILABLE;
	}

	/** What a log line says about it. */
	String description() {
		return this.description;
	}

}
