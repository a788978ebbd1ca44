package dev.tether.supervisor.internal.spawn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.SpawnFeatures;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.reaper.Reaper;

/**
 * Spawns children, every one of them from a single long-lived platform thread.
 * <p>
 * Why one thread: the kernel's parent-death signal follows the <em>thread</em> that
 * forked the child, not the process. A child spawned from a pool worker or a virtual
 * thread's carrier dies when that thread retires. Closing the spawner ends its thread, so
 * any child still alive then receives its parent-death signal.
 */
public final class Spawner implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Spawner.class);

	static final Path DEV_NULL = Path.of("/dev/null");

	private final ParentDeath parentDeath;

	private final Reaper reaper;

	private final ThreadFactory threadFactory;

	private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

	private final boolean nativeSpawn;

	private final WorkingDirectoryChange workingDirectoryChange;

	/** The spawn through posix_spawnp; null where the JVM makes no native call. */
	private final @Nullable NativeProcessSpawn natives;

	private Thread thread;

	private boolean closed;

	/**
	 * @param parentDeathSignal the signal children get when the JVM dies; 0 for none
	 * @param launcherDirectory where the native launcher is extracted
	 */
	public Spawner(int parentDeathSignal, Path launcherDirectory) {
		this(parentDeathSignal, EnumSet.allOf(ParentDeathMechanism.class), launcherDirectory, Reaper.shared(),
				Spawner::newSpawnerThread);
	}

	/**
	 * @param allowed the parent-death mechanisms that may be used (the best that runs
	 * here is chosen)
	 */
	public Spawner(int parentDeathSignal, Set<ParentDeathMechanism> allowed, Path launcherDirectory) {
		this(parentDeathSignal, allowed, launcherDirectory, Reaper.shared(), Spawner::newSpawnerThread);
	}

	Spawner(int parentDeathSignal, Set<ParentDeathMechanism> allowed, Path launcherDirectory, Reaper reaper,
			ThreadFactory threadFactory) {
		this.nativeSpawn = Posix.get().isAvailable();
		// Why the signal even without native calls: the launcher is a program, started by
		// ProcessBuilder as well as by posix_spawnp, and it arms the signal itself.
		this.parentDeath = ParentDeath.resolve(parentDeathSignal, allowed, launcherDirectory);
		this.workingDirectoryChange = WorkingDirectoryChange.choose(PosixSpawn.hasChdirAction(),
				this.parentDeath.mechanism());
		this.reaper = reaper;
		this.threadFactory = threadFactory;
		this.natives = this.nativeSpawn
				? new NativeProcessSpawn(this.parentDeath, reaper, this.workingDirectoryChange, capturesOutput())
				: null;
		if (this.nativeSpawn) {
			logger.info(
					"Children are spawned with posix_spawnp; parent-death signal: {}; descendants contained by: {}; "
							+ "output {}; working directory set by {}; inherited descriptors closed by {}",
					this.parentDeath.mechanism().id(),
					shepherds() ? "shepherd" : "group (no shepherd without the launcher: contain-descendants has no "
							+ "effect, and a descendant that leaves its child's process group survives a JVM killed "
							+ "with SIGKILL)",
					capturesOutput() ? "read through pipes into each child's sinks"
							: "appended to each child's file directly (without a parent-death signal a child may "
									+ "outlive the JVM, so no pipe, no rotation and no logger)",
					this.workingDirectoryChange.description(),
					PosixSpawn.hasClosefromAction() ? "posix_spawn_file_actions_addclosefrom_np"
							: "one close action per open descriptor (this glibc has no "
									+ "posix_spawn_file_actions_addclosefrom_np)");
		}
		else {
			logger.info("Children are spawned with ProcessBuilder (no native backend); parent-death signal: {}; "
					+ "descendants contained by: {}; signals to them: TERM and KILL only, through the JDK's handle of "
					+ "each child", this.parentDeath.mechanism().id(), shepherds() ? "shepherd" : "nothing");
		}
	}

	/**
	 * Why children are not tied to this JVM's life although a parent-death signal was
	 * asked for (they outlive a JVM killed with SIGKILL); empty when they are.
	 */
	public Optional<String> parentDeathWarning() {
		return Optional.ofNullable(this.parentDeath.warning());
	}

	/** How children are spawned here, as probed at start. */
	public SpawnFeatures features() {
		if (!this.nativeSpawn) {
			return new SpawnFeatures("ProcessBuilder", WorkingDirectoryChange.SPAWN_ACTION.id(), "jdk");
		}
		return new SpawnFeatures("posix_spawnp", this.workingDirectoryChange.id(),
				PosixSpawn.hasClosefromAction() ? "closefrom" : "close-each");
	}

	private static Thread newSpawnerThread(Runnable work) {
		// Why a daemon: it must never keep the JVM alive; its children die with the JVM
		// by design.
		Thread thread = new Thread(work, "supervisor-spawner");
		thread.setDaemon(true);
		return thread;
	}

	/** The mechanism that ties children to this JVM's life. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.parentDeath.mechanism();
	}

	/**
	 * Whether children that ask for it get a shepherd (the launcher is in force);
	 * otherwise only each command's own process group is tied to the supervisor.
	 */
	public boolean shepherds() {
		return this.parentDeath.mechanism() == ParentDeathMechanism.LAUNCHER;
	}

	/**
	 * Whether a request's output is read through pipes into its sinks. Not without a
	 * parent-death signal: a child that may outlive the JVM must not write to a pipe
	 * whose reader dies with it (its next write would kill it with SIGPIPE), so its
	 * output is appended to its file directly, without rotation or logger.
	 */
	public boolean capturesOutput() {
		return this.nativeSpawn && this.parentDeath.mechanism() != ParentDeathMechanism.NONE;
	}

	/**
	 * Finds the file a command would run, as the spawn will, so that configuration can be
	 * checked before anything starts.
	 * @throws SpawnException naming the executable when it is missing or not executable
	 */
	public static Path resolveExecutable(List<String> command, Map<String, String> environment,
			@Nullable Path workingDirectory) throws SpawnException {
		Path directory = (workingDirectory != null) ? workingDirectory : Path.of("").toAbsolutePath();
		return ExecutableResolver.resolve(command.get(0), environment.get("PATH"), directory);
	}

	/**
	 * Spawns a child and registers its exit with the reaper, atomically. Blocks until the
	 * spawner thread has done it. If the calling thread is interrupted meanwhile, the
	 * child (if it was made) is killed and reaped.
	 * @throws SpawnException naming what was wrong; the spawner serves the next caller
	 * afterwards
	 */
	public SpawnedChild spawn(SpawnRequest request, Reaper.ExitListener onExit) throws SpawnException {
		return submit(request, onExit).await();
	}

	/**
	 * Hands a spawn to the spawner thread without waiting for it, so that the caller can
	 * prepare the next while this one is made; {@link Pending#await()} gives its outcome,
	 * as {@link #spawn} would.
	 * <p>
	 * Why: a start of many children that waited for each spawn woke the spawner and then
	 * the caller again for every child, two hand-offs per child that each waited for a
	 * core when the cores were busy (the JIT, at an application's start).
	 * @throws SpawnException naming what was wrong with the request, before it is handed
	 * over
	 */
	public Pending submit(SpawnRequest request, Reaper.ExitListener onExit) throws SpawnException {
		long queued = System.nanoTime();
		if (request.workingDirectory() != null && !Files.isDirectory(request.workingDirectory())) {
			throw new SpawnException("working directory " + request.workingDirectory() + " does not exist");
		}
		if (request.workingDirectory() != null && this.nativeSpawn
				&& this.workingDirectoryChange == WorkingDirectoryChange.UNAVAILABLE) {
			throw new SpawnException("working directory " + request.workingDirectory() + " cannot be set: "
					+ "this glibc (older than 2.29) has no posix_spawn_file_actions_addchdir_np and the launcher, "
					+ "which would change directory instead, is not in use");
		}
		if (request.settings().needLauncher() && !shepherds()) {
			// Why refuse: without the launcher nothing runs between fork and exec to set
			// them, and setting them on the running command would leave it unlimited for
			// a while.
			throw new SpawnException("limits, oom-score-adjust and socket activation are applied by the launcher, "
					+ "which is not in force here (parent-death mechanism: " + this.parentDeath.mechanism().id() + "); "
					+ request.command().get(0) + " is not started without them");
		}
		if (request.settings().socket() != null && !this.nativeSpawn) {
			// Why refuse: ProcessBuilder passes no descriptor but the standard three.
			throw new SpawnException("socket activation hands the child a descriptor, which needs the native backend "
					+ "(children are spawned with ProcessBuilder here); " + request.command().get(0)
					+ " is not started without its socket");
		}
		Path executable = resolveExecutable(request.command(), request.environment(), request.workingDirectory());
		prepareLog(request.logFile());
		ChildOutput capture = request.capture();
		if (capture != null && this.natives != null && capturesOutput()) {
			// Why here, on the caller's thread: the spawner's thread is what every start
			// waits for, and the caller prepares this start while it spawns the last.
			try {
				capture.prepare();
			}
			catch (IOException ex) {
				throw new SpawnException(
						"cannot open the log file of child '" + capture.child() + "': " + ex.getMessage(), ex);
			}
		}
		SpawnTask task = new SpawnTask(request.command().get(0), executable,
				(deliver) -> spawnNow(request, executable, queued, deliver), onExit, this.reaper);
		submit(task);
		return task;
	}

	/** Runs on the spawner thread. */
	private SpawnedChild spawnNow(SpawnRequest request, Path executable, long queued, Reaper.ExitListener onExit)
			throws SpawnException {
		boolean shepherd = request.containDescendants() && shepherds();
		return (this.natives != null) ? this.natives.spawn(request, executable, shepherd, queued, onExit)
				: JdkProcessSpawn.spawn(this.parentDeath, request, executable, shepherd, queued, onExit);
	}

	/** A spawn handed to the spawner thread (see {@link #submit}). */
	public interface Pending {

		/**
		 * Waits for the spawn. If the calling thread is interrupted meanwhile, the child
		 * (if it was made) is killed and reaped.
		 * @throws SpawnException naming what was wrong; the spawner serves the next
		 * request afterwards
		 */
		SpawnedChild await() throws SpawnException;

		/**
		 * Waits for the spawn through any interrupt, which is kept for the caller. Why:
		 * for a spawn handed over with others (see {@link #submit}), which must each be
		 * recorded; giving one up on an interrupt would reap, on the caller's thread,
		 * exits that the others, not yet recorded, could not take.
		 * @throws SpawnException naming what was wrong
		 */
		SpawnedChild awaitUninterruptibly() throws SpawnException;

		/**
		 * Waits through any interrupt, which is kept for the caller, until the spawn is
		 * done, whatever came of it ({@link #awaitUninterruptibly()} tells what).
		 */
		void awaitDone();

	}

	private void submit(Runnable task) throws SpawnException {
		synchronized (this) {
			if (this.closed) {
				throw new SpawnException("the spawner is closed");
			}
			if (this.thread == null || !this.thread.isAlive()) {
				Thread candidate;
				try {
					candidate = this.threadFactory.newThread(this::serve);
					candidate.start();
				}
				catch (OutOfMemoryError | RuntimeException ex) {
					throw new SpawnException("cannot start the supervisor-spawner thread: " + ex, ex);
				}
				this.thread = candidate;
			}
			this.queue.add(task);
		}
	}

	private void serve() {
		while (true) {
			Runnable task;
			try {
				task = this.queue.take();
			}
			catch (InterruptedException ex) {
				return;
			}
			if (task == CLOSE) {
				return;
			}
			task.run();
		}
	}

	private static void prepareLog(Path log) throws SpawnException {
		try {
			Path parent = log.toAbsolutePath().getParent();
			// Why not createDirectories alone: where the directory is there (at nearly
			// every spawn), its mkdir fails and an exception is built and dropped.
			if (parent != null && !Files.isDirectory(parent)) {
				Files.createDirectories(parent);
			}
		}
		catch (IOException ex) {
			throw new SpawnException("cannot create the directory of log file " + log + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Ends the spawner thread. Children still alive then receive their parent-death
	 * signal; stop them first.
	 */
	@Override
	public void close() {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.queue.add(CLOSE);
		}
	}

	private static final Runnable CLOSE = () -> {
	};

}
