package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.os.NativeSpawnException;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.output.OutputPump;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.resources.TaskLimits;

/**
 * A spawn through {@code posix_spawnp}, on the spawner's thread: the output pipes (or the
 * log file), the stdio pipes, the launcher's or the shepherd's arguments, and the
 * registration with the reaper before the pid can exit unseen. Every descriptor opened
 * for a spawn that fails is closed here.
 */
final class NativeProcessSpawn {

	private final ParentDeath parentDeath;

	private final Reaper reaper;

	private final WorkingDirectoryChange workingDirectoryChange;

	private final boolean capturesOutput;

	/**
	 * @param capturesOutput whether output is read through pipes (see
	 * {@link Spawner#capturesOutput()})
	 */
	NativeProcessSpawn(ParentDeath parentDeath, Reaper reaper, WorkingDirectoryChange workingDirectoryChange,
			boolean capturesOutput) {
		this.parentDeath = parentDeath;
		this.reaper = reaper;
		this.workingDirectoryChange = workingDirectoryChange;
		this.capturesOutput = capturesOutput;
	}

	/**
	 * Starts the command; its exit is delivered to {@code onExit} by the reaper.
	 * @param shepherd whether it runs under a shepherd
	 * @param queued when the request was made, for the spawn's duration
	 */
	SpawnedChild spawn(SpawnRequest request, Path executable, boolean shepherd, long queued, Reaper.ExitListener onExit)
			throws SpawnException {
		OutputPump.Pipes pipes = openPipes(request, executable);
		StdioPipes.Ends stdio = null;
		boolean spawned = false;
		try {
			stdio = request.stdio() ? StdioPipes.Ends.open() : null;
			long pid = spawn(request, executable, shepherd, pipes, stdio, onExit);
			spawned = true;
			return new SpawnedChild(pid, null, Duration.ofNanos(System.nanoTime() - queued), shepherd,
					(stdio != null) ? stdio.spawned() : null);
		}
		finally {
			if (pipes != null && spawned) {
				pipes.attach();
			}
			else if (pipes != null) {
				pipes.discard();
			}
			if (stdio != null && !spawned) {
				stdio.discard();
			}
		}
	}

	private long spawn(SpawnRequest request, Path executable, boolean shepherd, OutputPump.@Nullable Pipes pipes,
			StdioPipes.@Nullable Ends stdio, Reaper.ExitListener onExit) throws SpawnException {
		// Why: without the chdir file action the launcher changes directory, and the
		// spawn is given none.
		boolean byLauncher = this.workingDirectoryChange == WorkingDirectoryChange.LAUNCHER;
		Path workingDirectory = request.workingDirectory();
		Path launcherChdir = byLauncher ? workingDirectory : null;
		// Why the shepherd holds the read ends (a stdio child's stdout too): after
		// the JVM's death a command that writes while it ends must not die of SIGPIPE
		// (see tether-shepherd.c).
		List<Integer> held = shepherd ? StdioPipes.Ends.held(stdio, pipes) : List.of();
		List<String> argv = shepherd
				? this.parentDeath.shepherdArgv(executable, request.command(), launcherChdir, request.settings(),
						held.size())
				: this.parentDeath.argv(executable, request.command(), launcherChdir, request.settings());
		List<String> env = new ArrayList<>(request.environment().size());
		for (Map.Entry<String, String> entry : request.environment().entrySet()) {
			env.add(entry.getKey() + "=" + entry.getValue());
		}
		Path stdin = (request.stdin() != null) ? request.stdin() : Spawner.DEV_NULL;
		PosixSpawn.Output output = (pipes != null) ? StdioPipes.Ends.output(stdio, pipes, held)
				: new PosixSpawn.Output.AppendTo(request.logFile().toAbsolutePath());
		try {
			return this.reaper.spawnRegistered(() -> PosixSpawn.spawn(this.parentDeath.spawnedPath(executable), argv,
					env, stdin, output, byLauncher ? null : workingDirectory, request.settings().socket()), onExit);
		}
		catch (NativeSpawnException ex) {
			if (ex.errno() == Posix.EAGAIN) {
				throw new ForkRefusedException("cannot spawn " + executable + ": " + TaskLimits.whyRefused(), ex);
			}
			throw new SpawnException("cannot spawn " + executable + ": " + ex.getMessage(), ex);
		}
	}

	private OutputPump.@Nullable Pipes openPipes(SpawnRequest request, Path executable) throws SpawnException {
		ChildOutput capture = request.capture();
		if (request.stdio() && (capture == null || !this.capturesOutput)) {
			// Why refused: a stdio child's stdout is the JVM's pipe, which it must
			// not outlive (see capturesOutput).
			throw new SpawnException("stdio of " + executable + " needs its output captured, which needs a "
					+ "parent-death signal (" + this.parentDeath.mechanism().id() + " is in force)");
		}
		if (capture == null || !this.capturesOutput) {
			return null;
		}
		try {
			return request.stdio() ? OutputPump.shared().openStderr(capture) : OutputPump.shared().open(capture);
		}
		catch (NativeSpawnException ex) {
			throw new SpawnException("cannot open the output pipes of " + executable + ": " + ex.getMessage(), ex);
		}
	}

}
