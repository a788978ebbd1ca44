package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.output.ChildOutput;

/**
 * What to spawn.
 *
 * @param command the executable (a path, or a name looked up on the {@code PATH} of
 * {@code environment}) then its arguments
 * @param environment the child's whole environment
 * @param workingDirectory where it runs, or {@code null} for the JVM's working directory
 * @param logFile where its stdout and stderr are appended when they are not captured
 * @param stdin what it reads, or {@code null} for {@code /dev/null}
 * @param containDescendants whether the command runs under a shepherd that ends all of
 * its descendants with it (honoured where the launcher is in force, see
 * {@link Spawner#shepherds()})
 * @param capture the sinks its stdout and stderr are read into through pipes, or
 * {@code null} to append them to {@code logFile} (they are appended there too where the
 * spawner does not capture, see {@link Spawner#capturesOutput()})
 * @param stdio whether its stdin and stdout are pipes whose other ends the JVM keeps
 * ({@link StdioPipes}); its stderr alone is then captured, which {@code capture} must
 * allow
 * @param settings the limits and OOM score the launcher sets on the command
 */
public record SpawnRequest(List<String> command, Map<String, String> environment, @Nullable Path workingDirectory,
		Path logFile, @Nullable Path stdin, boolean containDescendants, @Nullable ChildOutput capture, boolean stdio,
		CommandSettings settings) {

	public SpawnRequest {
		if (command == null || command.isEmpty() || command.get(0).isBlank()) {
			throw new IllegalArgumentException("command is empty");
		}
		command = List.copyOf(command);
		environment = Map.copyOf(environment);
		Objects.requireNonNull(settings, "settings");
	}

	/**
	 * A request whose stdin and stdout are not the JVM's, and whose command keeps the
	 * JVM's limits and OOM score.
	 */
	public SpawnRequest(List<String> command, Map<String, String> environment, @Nullable Path workingDirectory,
			Path logFile, @Nullable Path stdin, boolean containDescendants, @Nullable ChildOutput capture) {
		this(command, environment, workingDirectory, logFile, stdin, containDescendants, capture, false,
				CommandSettings.NONE);
	}

	/** A request whose output is appended to {@code logFile}. */
	public SpawnRequest(List<String> command, Map<String, String> environment, @Nullable Path workingDirectory,
			Path logFile, @Nullable Path stdin, boolean containDescendants) {
		this(command, environment, workingDirectory, logFile, stdin, containDescendants, null);
	}

	/**
	 * A request without a shepherd: only the command itself is tied to the supervisor.
	 */
	public SpawnRequest(List<String> command, Map<String, String> environment, @Nullable Path workingDirectory,
			Path logFile, @Nullable Path stdin) {
		this(command, environment, workingDirectory, logFile, stdin, false, null);
	}

}
