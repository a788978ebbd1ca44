package dev.tether.supervisor.spawn;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Finds the file a command names, as {@code execvp} would, so that a missing or non-executable binary is reported
 * by name before anything is spawned.
 */
final class ExecutableResolver {

	private ExecutableResolver() {
	}

	/**
	 * @param executable the command's first element
	 * @param path the {@code PATH} the child will have (may be {@code null})
	 * @param workingDirectory the child's working directory, against which a relative path is resolved
	 */
	static Path resolve(String executable, String path, Path workingDirectory) throws SpawnException {
		try {
			if (executable.contains("/")) {
				Path candidate = workingDirectory.resolve(executable).toAbsolutePath().normalize();
				return checked(candidate, executable);
			}
			String searched = (path != null) ? path : "/usr/local/bin:/usr/bin:/bin";
			for (String directory : searched.split(File.pathSeparator)) {
				Path candidate = workingDirectory.resolve(directory.isEmpty() ? "." : directory)
					.resolve(executable)
					.toAbsolutePath()
					.normalize();
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
			throw new SpawnException(
					"executable '" + executable + "' not found on PATH (" + searched + ")");
		}
		catch (InvalidPathException ex) {
			throw new SpawnException("executable '" + executable + "' is not a valid path: " + ex.getMessage());
		}
	}

	private static Path checked(Path candidate, String executable) throws SpawnException {
		if (!Files.exists(candidate)) {
			throw new SpawnException("executable '" + executable + "' not found (" + candidate + " does not exist)");
		}
		if (!Files.isRegularFile(candidate)) {
			throw new SpawnException("executable '" + executable + "' is not a regular file (" + candidate + ")");
		}
		if (!Files.isExecutable(candidate)) {
			throw new SpawnException("executable '" + executable + "' is not executable (" + candidate + ")");
		}
		return candidate;
	}

}
