package dev.tether.supervisor.internal.os;

import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.byref.IntByReference;
import org.jspecify.annotations.Nullable;

/**
 * One call of glibc's {@code posix_spawnp}: a new session and process group, stdin from a file, stdout and stderr
 * to the pipes of the output pump or appended to the log, every other descriptor closed, signal mask and
 * dispositions reset.
 */
public final class PosixSpawn {

	/** glibc's {@code POSIX_SPAWN_SETSIGDEF}. */
	private static final short SETSIGDEF = 0x04;

	/** glibc's {@code POSIX_SPAWN_SETSIGMASK}. */
	private static final short SETSIGMASK = 0x08;

	/** glibc's {@code POSIX_SPAWN_SETSID}: the child leads a new session and process group (pgid == sid == pid). */
	private static final short SETSID = 0x80;

	private static final int O_RDONLY = 0;

	private static final int O_WRONLY = 01;

	private static final int O_CREAT = 0100;

	private static final int O_APPEND = 02000;

	/** {@code O_NOFOLLOW}: the number differs between architectures. */
	private static final int O_NOFOLLOW = OpenFlags.O_NOFOLLOW.intValue();

	private static final int SIGSTOP = 19;

	// Why: glibc's opaque types are 80 (file actions), 336 (attributes) and 128 (sigset) bytes on 64-bit Linux;
	// the buffers are larger so that no layout change can make glibc write past them.
	private static final int OPAQUE_SIZE = 1024;

	private PosixSpawn() {
	}

	/**
	 * Whether this glibc has {@code posix_spawn_file_actions_addchdir_np} (2.29 and later). Without it a spawn
	 * cannot be given a working directory; the launcher changes directory instead.
	 */
	public static boolean hasChdirAction() {
		return OptionalActions.CHDIR;
	}

	/**
	 * Whether this glibc has {@code posix_spawn_file_actions_addclosefrom_np} (2.34 and later). Without it each
	 * descriptor open at the spawn gets a close action of its own.
	 */
	public static boolean hasClosefromAction() {
		return OptionalActions.CLOSEFROM;
	}

	/**
	 * Spawns {@code executable} with {@code argv} (argv[0] included) and the environment {@code env}
	 * ({@code KEY=value} entries).
	 * @return the child's pid
	 * @throws NativeSpawnException carrying the errno when glibc refuses
	 */
	public static long spawn(String executable, List<String> argv, List<String> env, Path stdin, Output output,
			@Nullable Path workingDirectory) throws NativeSpawnException {
		Posix posix = Posix.get();
		LibC libc = posix.libc();
		jnr.ffi.Runtime runtime = posix.runtime();
		Pointer actions = Memory.allocateDirect(runtime, OPAQUE_SIZE, true);
		Pointer attributes = Memory.allocateDirect(runtime, OPAQUE_SIZE, true);
		Pointer signals = Memory.allocateDirect(runtime, OPAQUE_SIZE, true);
		check("posix_spawn_file_actions_init", libc.posix_spawn_file_actions_init(actions));
		try {
			check("posix_spawnattr_init", libc.posix_spawnattr_init(attributes));
			try {
				if (output instanceof Output.Descriptors descriptors && descriptors.stdin() >= 0) {
					check("dup2 " + descriptors.stdin() + " to stdin",
							libc.posix_spawn_file_actions_adddup2(actions, descriptors.stdin(), 0));
				}
				else {
					check("open " + stdin, libc.posix_spawn_file_actions_addopen(actions, 0, stdin.toString(), O_RDONLY, 0));
				}
				addOutput(libc, actions, output);
				if (workingDirectory != null) {
					if (!hasChdirAction()) {
						throw new NativeSpawnException("chdir " + workingDirectory,
								"this glibc has no posix_spawn_file_actions_addchdir_np");
					}
					check("chdir " + workingDirectory,
							libc.posix_spawn_file_actions_addchdir_np(actions, workingDirectory.toString()));
				}
				closeInherited(libc, actions,
						3 + ((output instanceof Output.Descriptors descriptors) ? descriptors.held().size() : 0));
				libc.sigemptyset(signals);
				check("posix_spawnattr_setsigmask", libc.posix_spawnattr_setsigmask(attributes, signals));
				libc.sigfillset(signals);
				libc.sigdelset(signals, Posix.SIGKILL);
				libc.sigdelset(signals, SIGSTOP);
				check("posix_spawnattr_setsigdefault", libc.posix_spawnattr_setsigdefault(attributes, signals));
				Reference.reachabilityFence(signals);
				check("posix_spawnattr_setflags",
						libc.posix_spawnattr_setflags(attributes, (short) (SETSID | SETSIGMASK | SETSIGDEF)));
				Posix.CStringArray nativeArgv = posix.cStrings(argv);
				Posix.CStringArray nativeEnv = posix.cStrings(env);
				IntByReference pid = new IntByReference();
				int error;
				try {
					error = libc.posix_spawnp(pid, executable, actions, attributes, nativeArgv.pointer(),
							nativeEnv.pointer());
				}
				finally {
					// Why: jnr frees native memory once its Java object is unreachable, which could happen while
					// the spawn still reads argv and the environment.
					Reference.reachabilityFence(nativeArgv);
					Reference.reachabilityFence(nativeEnv);
				}
				if (error == Errno.ELOOP.intValue() && output instanceof Output.AppendTo append) {
					throw new NativeSpawnException("posix_spawnp " + executable, posix.describe(error) + ": the log file "
							+ append.file() + " is a symbolic link, which is never followed");
				}
				if (error == Errno.ENXIO.intValue() && output instanceof Output.AppendTo append) {
					throw new NativeSpawnException("posix_spawnp " + executable, posix.describe(error) + ": the log file "
							+ append.file() + " is a FIFO or a device, which is never opened as a log");
				}
				if (error != 0) {
					throw new NativeSpawnException("posix_spawnp " + executable, posix.describe(error));
				}
				return pid.intValue();
			}
			finally {
				libc.posix_spawnattr_destroy(attributes);
			}
		}
		finally {
			libc.posix_spawn_file_actions_destroy(actions);
		}
	}

	/** Where the child's stdout and stderr go. */
	public sealed interface Output {

		/** Both appended to a file, which is created owner-only if missing. */
		record AppendTo(Path file) implements Output {
		}

		/**
		 * Each onto a descriptor of the JVM (a pipe's write end; the same one for both when they are not told apart),
		 * and {@code held} (the pipes' read ends, for a shepherd to hold) as descriptors 3, 4, ... of the child;
		 * {@code stdin}, when not negative, is a pipe's read end that replaces the stdin file.
		 */
		record Descriptors(int stdout, int stderr, List<Integer> held, int stdin) implements Output {

			public Descriptors {
				held = List.copyOf(held);
			}

			public Descriptors(int stdout, int stderr, List<Integer> held) {
				this(stdout, stderr, held, -1);
			}

		}

	}

	private static void addOutput(LibC libc, Pointer actions, Output output) throws NativeSpawnException {
		if (output instanceof Output.Descriptors descriptors) {
			check("dup2 " + descriptors.stdout() + " to stdout",
					libc.posix_spawn_file_actions_adddup2(actions, descriptors.stdout(), 1));
			check("dup2 " + descriptors.stderr() + " to stderr",
					libc.posix_spawn_file_actions_adddup2(actions, descriptors.stderr(), 2));
			// Why this is safe in order: descriptors 0 to 4 of the JVM are taken long before any pipe is made, so no
			// dup2 here overwrites a descriptor a later one reads.
			for (int i = 0; i < descriptors.held().size(); i++) {
				check("dup2 " + descriptors.held().get(i) + " to " + (3 + i),
						libc.posix_spawn_file_actions_adddup2(actions, descriptors.held().get(i), 3 + i));
			}
			return;
		}
		Path file = ((Output.AppendTo) output).file();
		// Why no links: a link planted as the log would have the child append to whatever it points to. Why
		// non-blocking: the spawn waits for the child's exec, so a child waiting to open a FIFO would hold the
		// spawner; without a reader the open fails (ENXIO), and a regular file ignores the flag.
		check("open " + file, libc.posix_spawn_file_actions_addopen(actions, 1, file.toString(),
				O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | Posix.O_NONBLOCK, 0600));
		check("dup2 stdout to stderr", libc.posix_spawn_file_actions_adddup2(actions, 1, 2));
	}

	private static void closeInherited(LibC libc, Pointer actions, int first) throws NativeSpawnException {
		if (hasClosefromAction()) {
			check("posix_spawn_file_actions_addclosefrom_np",
					libc.posix_spawn_file_actions_addclosefrom_np(actions, first));
			return;
		}
		try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
			for (int fd : fds.map((path) -> Integer.parseInt(path.getFileName().toString()))
				.filter((fd) -> fd >= first)
				.toList()) {
				libc.posix_spawn_file_actions_addclose(actions, fd);
			}
		}
		catch (java.io.IOException io) {
			throw new NativeSpawnException("list /proc/self/fd", io.getMessage());
		}
	}

	private static void check(String step, int error) throws NativeSpawnException {
		if (error != 0) {
			throw new NativeSpawnException(step, Posix.get().describe(error));
		}
	}

	/**
	 * The optional file actions, probed once. Why probe: jnr binds a function at its first call, so a missing one
	 * would otherwise fail as an {@link UnsatisfiedLinkError} at the first spawn that needs it.
	 */
	private static final class OptionalActions {

		static final boolean CHDIR = probe((libc, actions) -> libc.posix_spawn_file_actions_addchdir_np(actions, "/"));

		static final boolean CLOSEFROM = probe((libc, actions) -> libc.posix_spawn_file_actions_addclosefrom_np(actions,
				3));

		private static boolean probe(Action action) {
			Posix posix = Posix.get();
			if (!posix.isAvailable()) {
				return false;
			}
			LibC libc = posix.libc();
			Pointer actions = Memory.allocateDirect(posix.runtime(), OPAQUE_SIZE, true);
			if (libc.posix_spawn_file_actions_init(actions) != 0) {
				return false;
			}
			try {
				return action.add(libc, actions) == 0;
			}
			catch (UnsatisfiedLinkError ex) {
				return false;
			}
			finally {
				libc.posix_spawn_file_actions_destroy(actions);
			}
		}

		private interface Action {

			int add(LibC libc, Pointer actions);

		}

	}

}
