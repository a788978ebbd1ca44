package dev.tether.supervisor.internal.os;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import org.jspecify.annotations.Nullable;

/**
 * One call of glibc's {@code posix_spawnp}: a new session and process group, stdin from a
 * file, stdout and stderr to the pipes of the output pump or appended to the log, every
 * other descriptor closed, signal mask and dispositions reset.
 */
public final class PosixSpawn {

	/** glibc's {@code POSIX_SPAWN_SETSIGDEF}. */
	private static final short SETSIGDEF = 0x04;

	/** glibc's {@code POSIX_SPAWN_SETSIGMASK}. */
	private static final short SETSIGMASK = 0x08;

	/**
	 * glibc's {@code POSIX_SPAWN_SETSID}: the child leads a new session and process group
	 * (pgid == sid == pid).
	 */
	private static final short SETSID = 0x80;

	private static final int O_RDONLY = 0;

	private static final int O_WRONLY = 01;

	private static final int O_CREAT = 0100;

	private static final int O_APPEND = 02000;

	/** {@code O_NOFOLLOW}: the number differs between architectures. */
	private static final int O_NOFOLLOW = OpenFlags.O_NOFOLLOW.intValue();

	private static final int SIGSTOP = 19;

	private PosixSpawn() {
	}

	/**
	 * Whether this glibc has {@code posix_spawn_file_actions_addchdir_np} (2.29 and
	 * later). Without it a spawn cannot be given a working directory; the launcher
	 * changes directory instead.
	 */
	public static boolean hasChdirAction() {
		Posix posix = Posix.get();
		return posix.isAvailable() && posix.calls().hasChdirAction();
	}

	/**
	 * Whether this glibc has {@code posix_spawn_file_actions_addclosefrom_np} (2.34 and
	 * later). Without it each descriptor open at the spawn gets a close action of its
	 * own.
	 */
	public static boolean hasClosefromAction() {
		Posix posix = Posix.get();
		return posix.isAvailable() && posix.calls().hasClosefromAction();
	}

	/**
	 * Spawns {@code executable} with {@code argv} (argv[0] included) and the environment
	 * {@code env} ({@code KEY=value} entries), handing the child a listening socket where
	 * one is given.
	 * @param socket the socket and where the child gets it, or {@code null}
	 * @return the child's pid
	 * @throws NativeSpawnException carrying the errno when glibc refuses
	 */
	public static long spawn(String executable, List<String> argv, List<String> env, Path stdin, Output output,
			@Nullable Path workingDirectory, @Nullable HandedSocket socket) throws NativeSpawnException {
		return spawn(Posix.get(), executable, argv, env, stdin, output, workingDirectory, socket);
	}

	static long spawn(Posix posix, String executable, List<String> argv, List<String> env, Path stdin, Output output,
			@Nullable Path workingDirectory, @Nullable HandedSocket socket) throws NativeSpawnException {
		try (NativeCalls.SpawnCall call = posix.calls().spawnCall()) {
			check("posix_spawn_file_actions_init", call.initActions());
			check("posix_spawnattr_init", call.initAttributes());
			if (socket != null && socket.asStdin()) {
				check("dup2 listening socket " + socket.fd() + " to stdin", call.addDup2(socket.fd(), 0));
			}
			else if (output instanceof Output.Descriptors descriptors && descriptors.stdin() >= 0) {
				check("dup2 " + descriptors.stdin() + " to stdin", call.addDup2(descriptors.stdin(), 0));
			}
			else {
				check("open " + stdin, call.addOpen(0, stdin.toString(), O_RDONLY, 0));
			}
			addOutput(call, output);
			int held = (output instanceof Output.Descriptors descriptors) ? descriptors.held().size() : 0;
			boolean socketAfterHeld = socket != null && !socket.asStdin();
			if (socketAfterHeld) {
				// Why after the held pipes: the launcher takes it from there (see
				// tether-settings.c, --listen-socket); the socket is kept above any of
				// these.
				check("dup2 listening socket " + socket.fd() + " to " + (3 + held),
						call.addDup2(socket.fd(), 3 + held));
			}
			if (workingDirectory != null) {
				if (!posix.calls().hasChdirAction()) {
					throw new NativeSpawnException("chdir " + workingDirectory,
							"this glibc has no posix_spawn_file_actions_addchdir_np");
				}
				check("chdir " + workingDirectory, call.addChdir(workingDirectory.toString()));
			}
			closeInherited(call, posix.calls().hasClosefromAction(), 3 + held + (socketAfterHeld ? 1 : 0));
			check("posix_spawnattr_setsigmask", call.emptySignalMask());
			check("posix_spawnattr_setsigdefault", call.defaultSignalsBut(Posix.SIGKILL, SIGSTOP));
			check("posix_spawnattr_setflags", call.setFlags((short) (SETSID | SETSIGMASK | SETSIGDEF)));
			int[] pid = new int[1];
			int error = call.spawnp(executable, argv, env, pid);
			if (error == Errno.ELOOP.intValue() && output instanceof Output.AppendTo append) {
				throw new NativeSpawnException("posix_spawnp " + executable, posix.describe(error) + ": the log file "
						+ append.file() + " is a symbolic link, which is never followed");
			}
			if (error == Errno.ENXIO.intValue() && output instanceof Output.AppendTo append) {
				throw new NativeSpawnException("posix_spawnp " + executable, posix.describe(error) + ": the log file "
						+ append.file() + " is a FIFO or a device, which is never opened as a log");
			}
			if (error != 0) {
				throw new NativeSpawnException("posix_spawnp " + executable, error, posix.describe(error));
			}
			return pid[0];
		}
	}

	/** Where the child's stdout and stderr go. */
	public sealed interface Output {

		/** Both appended to a file, which is created owner-only if missing. */
		record AppendTo(Path file) implements Output {
		}

		/**
		 * Each onto a descriptor of the JVM (a pipe's write end; the same one for both
		 * when they are not told apart), and {@code held} (the pipes' read ends, for a
		 * shepherd to hold) as descriptors 3, 4, ... of the child; {@code stdin}, when
		 * not negative, is a pipe's read end that replaces the stdin file.
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

	private static void addOutput(NativeCalls.SpawnCall call, Output output) throws NativeSpawnException {
		if (output instanceof Output.Descriptors descriptors) {
			check("dup2 " + descriptors.stdout() + " to stdout", call.addDup2(descriptors.stdout(), 1));
			check("dup2 " + descriptors.stderr() + " to stderr", call.addDup2(descriptors.stderr(), 2));
			// Why this is safe in order: descriptors 0 to 4 of the JVM are taken long
			// before any pipe is made, so no dup2 here overwrites a descriptor a later
			// one reads.
			for (int i = 0; i < descriptors.held().size(); i++) {
				check("dup2 " + descriptors.held().get(i) + " to " + (3 + i),
						call.addDup2(descriptors.held().get(i), 3 + i));
			}
			return;
		}
		Path file = ((Output.AppendTo) output).file();
		// Why no links: a link planted as the log would have the child append to whatever
		// it points to. Why non-blocking: the spawn waits for the child's exec, so a
		// child waiting to open a FIFO would hold the spawner; without a reader the open
		// fails (ENXIO), and a regular file ignores the flag.
		check("open " + file,
				call.addOpen(1, file.toString(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | Posix.O_NONBLOCK, 0600));
		check("dup2 stdout to stderr", call.addDup2(1, 2));
	}

	private static void closeInherited(NativeCalls.SpawnCall call, boolean closefrom, int first)
			throws NativeSpawnException {
		if (closefrom) {
			check("posix_spawn_file_actions_addclosefrom_np", call.addClosefrom(first));
			return;
		}
		try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
			for (int fd : fds.map((path) -> Integer.parseInt(path.getFileName().toString()))
				.filter((fd) -> fd >= first)
				.toList()) {
				call.addClose(fd);
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

}
