package dev.tether.supervisor.registry;

import java.nio.file.Path;

/**
 * Another supervisor holds the state directory.
 */
public class RegistryLockedException extends IllegalStateException {

	private final Path stateDirectory;

	private final String holder;

	RegistryLockedException(Path stateDirectory, String holder) {
		super("state directory " + stateDirectory + " is locked by another supervisor (pid " + holder
				+ "); each running supervisor needs its own supervisor.state-directory");
		this.stateDirectory = stateDirectory;
		this.holder = holder;
	}

	public Path stateDirectory() {
		return this.stateDirectory;
	}

	/** The pid that holds the lock, as it wrote it ({@code unknown} when unreadable). */
	public String holder() {
		return this.holder;
	}

}
