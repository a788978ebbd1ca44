package dev.tether.supervisor;

import java.nio.file.Path;

/**
 * A directory Tether would write to or execute from can be changed by another user:
 * Tether refuses to use it.
 */
public class UnsafeDirectoryException extends IllegalStateException {

	private final Path directory;

	private final Path unsafe;

	public UnsafeDirectoryException(Path directory, Path unsafe, String reason, String remedy) {
		super(directory + " is not private to this user: " + unsafe + " " + reason
				+ "; another user could replace what Tether executes or writes there. " + remedy + ", or use a "
				+ "directory whose every ancestor is owned by this user or root and not writable by others (a directory "
				+ "under a sticky one such as /tmp qualifies)");
		this.directory = directory;
		this.unsafe = unsafe;
	}

	/** The directory that was checked. */
	public Path getDirectory() {
		return this.directory;
	}

	/** The directory on its path that another user can change. */
	public Path getUnsafePath() {
		return this.unsafe;
	}

}
