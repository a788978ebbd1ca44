package dev.tether.supervisor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * Finds the executable a command would run, by the rules the supervisor spawns with, so
 * that configuration can be checked before anything starts.
 */
public final class Executables {

	private Executables() {
	}

	/**
	 * The executable that {@code command.get(0)} names: a path (relative to the working
	 * directory), or a name looked up on the {@code PATH} of the given environment.
	 * @param command the command and its arguments
	 * @param environment the environment whose {@code PATH} is searched
	 * @param workingDirectory the child's working directory, or {@code null} for the
	 * supervisor's own
	 * @throws SpawnException naming the executable and what is wrong with it
	 */
	public static Path resolve(List<String> command, Map<String, String> environment, @Nullable Path workingDirectory)
			throws SpawnException {
		return Spawner.resolveExecutable(command, environment, workingDirectory);
	}

}
