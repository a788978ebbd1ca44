package dev.tether.supervisor.internal.spawn;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.SpawnException;

/**
 * Finds the file a command names, as {@code execvp} would, so that a missing or
 * non-executable binary is reported by name before anything is spawned. The one PATH
 * search of the supervisor: the spawn and the choice of {@code setpriv} both use it.
 * <p>
 * One deliberate difference from {@code execvp}: an empty {@code PATH} entry (a leading,
 * trailing or doubled {@code :}) is skipped rather than read as the current directory.
 * Why: it would make the JVM's (or the child's) working directory a search location by
 * accident, so that whatever file lands there runs as the child.
 */
final class ExecutableResolver {

	/** The search path used when the environment has no {@code PATH}. */
	static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

	private static final Logger logger = LoggerFactory.getLogger(ExecutableResolver.class);

	private ExecutableResolver() {
	}

	/**
	 * @param executable the command's first element
	 * @param path the {@code PATH} the child will have (may be {@code null})
	 * @param workingDirectory the child's working directory, against which a relative
	 * path is resolved
	 */
	static Path resolve(String executable, String path, Path workingDirectory) throws SpawnException {
		try {
			if (executable.contains("/")) {
				Path candidate = workingDirectory.resolve(executable).toAbsolutePath().normalize();
				return checked(candidate, executable);
			}
			String searched = (path != null) ? path : DEFAULT_PATH;
			for (String directory : searched.split(File.pathSeparator)) {
				if (directory.isEmpty()) {
					continue;
				}
				Path candidate = workingDirectory.resolve(directory).resolve(executable).toAbsolutePath().normalize();
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
			// Why: the message reaches the endpoint and health details; the PATH may name
			// private directories, so only the log carries it.
			logger.warn("Executable '{}' not found on PATH {}", executable, searched);
			throw new SpawnException("executable '" + executable + "' not found on PATH");
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
