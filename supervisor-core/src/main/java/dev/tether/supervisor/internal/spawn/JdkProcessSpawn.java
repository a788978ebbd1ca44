package dev.tether.supervisor.internal.spawn;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.reaper.Reaper;

/**
 * A spawn through the JDK's {@link ProcessBuilder}, where the JVM may make no native call
 * of its own (native access denied, or no backend): the command still runs under the
 * launcher, which needs none of the JVM's native calls, so it is still tied to the JVM's
 * life and, with a shepherd, so are its descendants.
 */
final class JdkProcessSpawn {

	private JdkProcessSpawn() {
	}

	/**
	 * Starts the command; its exit is delivered to {@code onExit} by the JDK's process
	 * reaper.
	 */
	static SpawnedChild spawn(ParentDeath parentDeath, SpawnRequest request, Path executable, boolean shepherd,
			long queued, Reaper.ExitListener onExit) throws SpawnException {
		List<String> command = shepherd
				? parentDeath.shepherdArgv(executable, request.command(), null, request.settings(), 0)
				: parentDeath.argv(executable, request.command(), null, request.settings());
		if (parentDeath.mechanism() == ParentDeathMechanism.NONE) {
			command.set(0, executable.toString());
		}
		ProcessBuilder builder = new ProcessBuilder(command)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(request.logFile().toFile()))
			.redirectErrorStream(true)
			.redirectInput(ProcessBuilder.Redirect
				.from(((request.stdin() != null) ? request.stdin() : Spawner.DEV_NULL).toFile()));
		if (request.stdio()) {
			StdioPipes.redirect(builder, request.logFile());
		}
		if (request.workingDirectory() != null) {
			builder.directory(request.workingDirectory().toFile());
		}
		builder.environment().clear();
		builder.environment().putAll(request.environment());
		try {
			Process process = builder.start();
			long pid = process.pid();
			process.onExit().thenAccept((ended) -> onExit.onExit(pid, ExitStatus.exited(ended.exitValue())));
			return new SpawnedChild(pid, process.toHandle(), Duration.ofNanos(System.nanoTime() - queued), shepherd,
					request.stdio() ? StdioPipes.of(process) : null);
		}
		catch (IOException ex) {
			throw new SpawnException("cannot spawn " + executable + ": " + ex.getMessage(), ex);
		}
	}

}
